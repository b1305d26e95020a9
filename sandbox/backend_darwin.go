package sandbox

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"strconv"
)

// ModeSeatbelt is the macOS backend (sandbox-exec with a generated profile).
const ModeSeatbelt Mode = "seatbelt"

func (s *Sandbox) pickBackend(m Mode) (Mode, error) {
	switch m {
	case ModeOff:
		return ModeOff, nil
	case ModeAuto:
		if _, err := exec.LookPath("sandbox-exec"); err != nil {
			return "", fmt.Errorf("sandbox: sandbox-exec not found; run with --sandbox off knowingly")
		}
		return ModeSeatbelt, nil
	}
	return "", fmt.Errorf("sandbox mode %s is Linux-only; use --sandbox auto on macOS", m)
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
	c := exec.CommandContext(ctx, "sandbox-exec", append([]string{"-p", prof, "--"}, argv...)...)
	c.Dir = dir
	c.Env = s.envWithProxy(s.p.TempDir, port)
	return c, nil
}
