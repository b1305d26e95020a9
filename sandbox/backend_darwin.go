package sandbox

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
)

// sandboxExec is run by its absolute path: a sandbox-exec earlier on PATH
// could be anything.
const sandboxExec = sandboxExecPath

func (s *Sandbox) pickBackend(m Mode) (Mode, error) {
	if err := supportedOn("darwin", m); err != nil {
		return "", err
	}
	switch m {
	case ModeOff:
		return ModeOff, nil
	}
	if _, err := os.Stat(sandboxExec); err != nil {
		return "", fmt.Errorf("sandbox: %s is missing (%v); it ships with every macOS, so this Mac is unusual: run with --sandbox off knowingly", sandboxExec, err)
	}
	return ModeSeatbelt, nil
}

// LandlockABI is 0: Landlock is Linux-only.
func LandlockABI() int { return 0 }

func (s *Sandbox) command(ctx context.Context, dir string, argv []string) (*exec.Cmd, error) {
	port := 0
	if s.proxy != nil {
		if s.tcpProxy == "" {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				return nil, fmt.Errorf("sandbox proxy: %w", err)
			}
			s.tcpProxy = ln.Addr().String()
			go s.proxy.Serve(ln)
		}
		_, ps, _ := net.SplitHostPort(s.tcpProxy)
		port, _ = strconv.Atoi(ps)
	}
	prof, err := SeatbeltProfile(s.p, port)
	if err != nil {
		return nil, err
	}
	c := exec.CommandContext(ctx, sandboxExec, append([]string{"-p", prof, "--"}, argv...)...)
	c.Dir = dir
	c.Env = s.envWithProxy(s.p.TempDir, port)
	return c, nil
}
