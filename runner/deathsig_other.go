//go:build !linux

package runner

import "os/exec"

// dieWithSentinel: no parent-death signal off Linux; the stop's group kill
// still ends the check.
func dieWithSentinel(*exec.Cmd) {}
