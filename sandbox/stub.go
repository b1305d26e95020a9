package sandbox

// Placeholder so the rest of the tree compiles until enforcement lands.
// TODO(sandbox): replace with the real backends.

import (
	"context"
	"os"
	"os/exec"
)

// Sandbox is a prepared profile that can start commands.
type Sandbox struct {
	p    Profile
	mode Mode
}

// Prepare checks that the machine can enforce p under o.Mode and sets up what
// the commands will share (temp dir, proxy). It refuses rather than weakens.
func Prepare(p Profile, o Options) (*Sandbox, error) {
	if p.TempDir == "" {
		d, err := os.MkdirTemp("", "sentinel-tmp-")
		if err != nil {
			return nil, err
		}
		p.TempDir = d
	}
	return &Sandbox{p: p, mode: o.Mode}, nil
}

// Command returns a command that runs argv inside the sandbox in dir.
func (s *Sandbox) Command(ctx context.Context, dir string, argv ...string) (*exec.Cmd, error) {
	c := exec.CommandContext(ctx, argv[0], argv[1:]...)
	c.Dir = dir
	c.Env = append(os.Environ(), s.p.Env...)
	return c, nil
}

// Mode is the effective backend.
func (s *Sandbox) Mode() Mode { return ModeOff }

// Describe is a short label for the status bar and the journal.
func (s *Sandbox) Describe() string { return "off (stub)" }

// Close releases the proxy and temp dir.
func (s *Sandbox) Close() error { return os.RemoveAll(s.p.TempDir) }

// HelperMain runs inside the namespaces; it never returns on success.
func HelperMain(args []string) int { return 1 }
