package main

import (
	"os"
	"syscall"
)

// peakRSSMB is the child's peak resident set in MB (macOS counts Maxrss in bytes).
func peakRSSMB(ps *os.ProcessState) (float64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0, false
	}
	return float64(ru.Maxrss) / (1 << 20), true
}
