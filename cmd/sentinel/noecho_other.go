//go:build !linux && !darwin

package main

import "os"

// noEcho does nothing where the demo coder has no unix terminal to quiet.
func noEcho(f *os.File) {}
