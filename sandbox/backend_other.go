//go:build !linux && !darwin

package sandbox

import (
	"context"
	"fmt"
	"os/exec"
	"runtime"
)

func (s *Sandbox) pickBackend(m Mode) (Mode, error) {
	if m == ModeOff {
		return ModeOff, nil
	}
	return "", fmt.Errorf("sandbox: no sandbox backend for %s; run with --sandbox off knowingly", runtime.GOOS)
}

// LandlockABI is 0: Landlock is Linux-only.
func LandlockABI() int { return 0 }

func (s *Sandbox) command(ctx context.Context, dir string, argv []string) (*exec.Cmd, error) {
	return nil, fmt.Errorf("sandbox: no backend on %s", runtime.GOOS)
}
