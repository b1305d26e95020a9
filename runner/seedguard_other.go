//go:build !linux

package runner

import (
	"fmt"
	"os"
	"os/exec"
)

// guardSeed: no parent-death signal off Linux, so no guard; the command's
// own group is still ended whole when its context ends.
func guardSeed(*exec.Cmd, string) bool { return false }

// SeedGuardMain is used on Linux only.
func SeedGuardMain([]string) int {
	fmt.Fprintln(os.Stderr, "sentinel: "+SeedGuardArg+" is for Linux")
	return 2
}
