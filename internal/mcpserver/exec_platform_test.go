//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"testing"
)

// Where there is no sandbox backend (Windows), exec refuses with the
// reason and runs nothing; the file tools still work.
func TestExecRefusesWithoutASandboxBackend(t *testing.T) {
	f := newFixture(t)
	old := execUnavailable
	execUnavailable = "exec is not available on this platform"
	defer func() { execUnavailable = old }()
	cs, _ := session(t, mustConfig(t, f.config("")), Options{})
	mustRefuse(t, cs, "exec", map[string]any{"command": "echo made > made.txt"}, ClassOpDisabled)
	if _, err := os.Stat(filepath.Join(f.rw, "made.txt")); err == nil {
		t.Fatal("exec ran a command with no sandbox backend")
	}
	mustAllow(t, cs, "read", map[string]any{"path": filepath.Join(f.rw, "notes.txt")})
}
