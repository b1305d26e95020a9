//go:build !linux && !darwin

package main

import "os"

// peakRSSMB is not known here.
func peakRSSMB(ps *os.ProcessState) (float64, bool) { return 0, false }
