//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A file that runs code later may be a symbolic link (direnv, an editor
// and a shell all follow one): a link the command makes under such a name
// is named in its answer like a file it makes, and the file an existing
// one names is held read-only with it, so writing through the link's
// target does not change what runs later.
func TestExecRunLaterFilesThroughLinks(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	app := f.rw
	if err := os.WriteFile(filepath.Join(app, "env.sh"), []byte("echo person\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("env.sh", filepath.Join(app, ".envrc")); err != nil {
		t.Fatal(err)
	}
	cfg := mustConfig(t, `exec_mode = "unrestricted"
[[paths]]
path = "`+app+`"
access = "rw"
`)
	cs, _ := stdioSession(t, cfg, Options{Helper: bin})
	got := mustAllow(t, cs, "exec", map[string]any{"command": `sh -c 'echo "touch PWNED" > env.sh; echo "touch PWNED" > notes.txt; mkdir web && ln -s ../notes.txt web/.envrc'`})
	if b, _ := os.ReadFile(filepath.Join(app, "env.sh")); string(b) != "echo person\n" {
		t.Errorf("the file the person's .envrc names was written through: %q\n%s", b, got)
	}
	if w := "the command made " + filepath.Join(app, "web", ".envrc") + " (a symbolic link"; !strings.Contains(got, w) {
		t.Errorf("a link made under a run-later name was not named (%q):\n%s", w, got)
	}
	// The person's link re-pointed at a file the command wrote.
	got = mustAllow(t, cs, "exec", map[string]any{"command": `sh -c 'echo "touch PWNED" > other.sh; ln -sfn other.sh .envrc'`})
	if w := "the command made " + filepath.Join(app, ".envrc") + " (a symbolic link other.sh"; !strings.Contains(got, w) {
		t.Errorf("a re-pointed link was not named (%q):\n%s", w, got)
	}
	if again := mustAllow(t, cs, "exec", map[string]any{"command": "true"}); strings.Contains(again, "the command made") {
		t.Errorf("named again after a command that made nothing:\n%s", again)
	}
}
