//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A command cannot re-point a symbolic link on the way to a file the
// repository's config includes (the read-only mount holds the file, not
// the link): after the command the link is moved into the quarantine and
// the answer names it, so git reads no file the command chose; a link the
// command left alone stays where it is.
func TestExecQuarantinesARepointedLinkToAnIncludedFile(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	gitInit(t, f.rw)
	for _, d := range []string{"real", "other", "real2"} {
		os.MkdirAll(filepath.Join(f.rw, d), 0o755)
	}
	write(t, filepath.Join(f.rw, "real", "team.gitconfig"), "[user]\n\tname = team\n")
	write(t, filepath.Join(f.rw, "real2", "kept.gitconfig"), "")
	write(t, filepath.Join(f.rw, "other", "team.gitconfig"), "[core]\n\tfsmonitor = touch /tmp/pwned\n")
	for link, to := range map[string]string{"cfgdir": "real", "keptdir": "real2"} {
		if err := os.Symlink(to, filepath.Join(f.rw, link)); err != nil {
			t.Fatal(err)
		}
	}
	gitConfig(t, f.rw, "include.path", "../cfgdir/team.gitconfig")
	gitConfig(t, f.rw, "include.path", "../keptdir/kept.gitconfig")
	cfg := mustConfig(t, `exec_mode = "allowlist"
allowed_commands = ["ln"]
[[paths]]
path = "`+f.rw+`"
access = "rw"
`)
	cs, _ := stdioSession(t, cfg, Options{Helper: bin})
	link := filepath.Join(f.rw, "cfgdir")
	got, _ := call(t, cs, "exec", map[string]any{"command": "ln -sfn other " + link})
	if !strings.Contains(got, "quarantined "+link+" (moved to ") {
		t.Errorf("the answer does not name the re-pointed link as quarantined:\n%s", got)
	}
	if to, err := os.Readlink(link); err == nil {
		t.Errorf("the re-pointed link is still there (to %s): git would read the command's file", to)
	}
	if strings.Contains(got, filepath.Join(f.rw, "keptdir")) {
		t.Errorf("the link the command left alone is named:\n%s", got)
	}
	if to, err := os.Readlink(filepath.Join(f.rw, "keptdir")); err != nil || to != "real2" {
		t.Errorf("the link the command left alone was moved: %q %v", to, err)
	}
	q, _ := quarantineDir()
	entries, _ := os.ReadDir(q)
	found := false
	for _, e := range entries {
		if to, err := os.Readlink(filepath.Join(q, e.Name())); err == nil && to == "other" {
			found = true
		}
	}
	if !found {
		t.Errorf("the quarantine %s does not hold the re-pointed link (%d entries)", q, len(entries))
	}
}
