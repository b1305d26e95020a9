//go:build unix

package mcpserver

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/servicewire"
)

// The user service's socket answers any process of this user: whoever
// reaches it can answer the approval queue's cards (this server's own
// asks included). A run hides its directory from the sandbox; so must
// exec here, even when an r or rw path covers it (XDG_RUNTIME_DIR under a
// configured path).
func TestExecDoesNotShowTheServiceSocket(t *testing.T) {
	bin := helper(t)
	f := newFixture(t)
	rt := filepath.Join(f.ro, "rt")
	t.Setenv("XDG_RUNTIME_DIR", rt)
	if err := os.MkdirAll(rt, 0o700); err != nil {
		t.Fatal(err)
	}
	sock, err := servicewire.SocketPath()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	cs, _ := session(t, mustConfig(t, f.config(`allow_hosts = []`)), Options{Helper: bin})
	got := mustAllow(t, cs, "exec", map[string]any{"command": "ls -a " + filepath.Dir(sock), "cwd": f.ro})
	if strings.Contains(got, servicewire.SocketName) {
		t.Fatalf("a command saw the service socket %s: %s", sock, got)
	}
}
