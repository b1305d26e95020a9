//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHelpPathAndOpNames(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	base := filepath.Join(f.rw, "up")
	os.Mkdir(base, 0o755)
	cs, srv := stdioSession(t, mustConfig(t, f.config(`disabled_ops = ["op:Delete", " OP: chmod "]
upload_base = "`+base+`"`)), Options{})

	got := mustAllow(t, cs, "help", map[string]any{"path": f.rw + "/notes.txt"})
	for _, want := range []string{"(access rw)", "edit", "chown", "delete (disabled)", "chmod (disabled)", "upload_file (only inside upload_base)"} {
		if !strings.Contains(got, want) {
			t.Fatalf("help path=rw lacks %q:\n%s", want, got)
		}
	}
	if got := mustAllow(t, cs, "help", map[string]any{"path": base + "/x"}); !strings.Contains(got, "tools here: exec, read, list, search, edit, move, copy, chown, upload_file") {
		t.Fatalf("help path=upload_base:\n%s", got)
	}
	got = mustAllow(t, cs, "help", map[string]any{"path": f.ro + "/app.log"})
	if !strings.Contains(got, "(access r)") || !strings.Contains(got, "edit (read-only path)") || strings.Contains(got, "edit,") {
		t.Fatalf("help path=r:\n%s", got)
	}
	mustRefuse(t, cs, "help", map[string]any{"path": f.secret}, ClassPathNotAllowed)
	os.Symlink(f.outside, filepath.Join(f.rw, "out"))
	mustRefuse(t, cs, "help", map[string]any{"path": f.rw + "/out/secret.txt"}, ClassPathNotAllowed)
	mustRefuse(t, cs, "help", map[string]any{"path": srv.AuditPath()}, ClassPathNotAllowed)

	// op:NAME, any case, and the usual aliases are the tool's topic.
	want := mustAllow(t, cs, "help", map[string]any{"topic": "files"})
	for _, topic := range []string{"op:read", "OP: Read", "read_file", " op:chmod"} {
		if got := mustAllow(t, cs, "help", map[string]any{"topic": topic}); got != want {
			t.Fatalf("help topic=%q: %s", topic, got)
		}
	}
	// disabled_ops spelled op:NAME switch the tool off.
	mustRefuse(t, cs, "delete", map[string]any{"path": f.rw + "/notes.txt"}, ClassOpDisabled)
	mustRefuse(t, cs, "chmod", map[string]any{"path": f.rw + "/notes.txt", "mode": "600"}, ClassOpDisabled)
	if _, err := os.Stat(f.rw + "/notes.txt"); err != nil {
		t.Fatal("a disabled delete deleted")
	}
}
