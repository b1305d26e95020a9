//go:build !linux

package sandbox

import (
	"context"
	"fmt"
	"os/exec"
	"runtime"
)

// View is Linux-only (overlay_linux.go); Wrap leaves cmd as it is.
type View struct {
	Helper string
	Lower  string
	Upper  string
}

// Wrap does nothing off Linux: no overlay workspace is ever made there.
func (v View) Wrap(cmd *exec.Cmd) {}

// OverlayWorks is never true off Linux.
func OverlayWorks(ctx context.Context, helper string, mode Mode, lowerScratch, upperScratch string) error {
	return fmt.Errorf("overlay workspaces need Linux (this is %s)", runtime.GOOS)
}
