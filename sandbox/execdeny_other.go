//go:build !linux

package sandbox

import (
	"fmt"
	"runtime"
)

// resolveDenied refuses: only the Linux backends (Landlock) can refuse a
// program at exec time.
func (s *Sandbox) resolveDenied() ([]deniedFile, error) {
	if len(s.p.DeniedExecutables) == 0 {
		return nil, nil
	}
	return nil, fmt.Errorf("sandbox: denied_executables cannot be enforced on %s (Linux only); empty [service] denied_executables in your config to run here", runtime.GOOS)
}
