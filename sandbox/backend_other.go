//go:build !linux && !darwin

package sandbox

import (
	"context"
	"fmt"
	"os/exec"
	"runtime"
)

func (s *Sandbox) pickBackend(m Mode) (Mode, error) {
	if err := supportedOn(runtime.GOOS, m); err != nil {
		return "", err
	}
	return ModeOff, nil // supportedOn passes only off here
}

// LandlockABI is 0: Landlock is Linux-only.
func LandlockABI() int { return 0 }

func (s *Sandbox) command(ctx context.Context, dir string, argv []string) (*exec.Cmd, error) {
	return nil, fmt.Errorf("sandbox: no backend on %s", runtime.GOOS)
}
