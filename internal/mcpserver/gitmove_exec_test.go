//go:build unix

package mcpserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 31, point 4 through a real exec call: a nested repository's .git
// moved to another directory, or moved aside, given core.fsmonitor and
// moved back. The git dir is a read-only mount in the sandbox: the rename
// fails (EBUSY; to another directory mv gets EXDEV and copies, and the
// copy, a new git dir, is quarantined by the sweep), its config is
// unchanged, and the person's own git afterwards runs nothing.
func TestExecCannotMoveAGitDirAwayAndBack(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	app := f.rw
	sub := filepath.Join(app, "sub")
	gitInit(t, sub)
	os.MkdirAll(filepath.Join(app, "other"), 0o755)
	configBefore, err := os.ReadFile(filepath.Join(sub, ".git", "config"))
	if err != nil {
		t.Fatal(err)
	}
	mark := filepath.Join(t.TempDir(), "PWNED")
	plant := "printf '[core]\\n\\tfsmonitor = touch " + mark + "\\n' >> "
	cfg := mustConfig(t, `exec_mode = "unrestricted"
[[paths]]
path = "`+app+`"
access = "rw"
`)
	cs, _ := stdioSession(t, cfg, Options{Helper: bin})
	got := mustAllow(t, cs, "exec", map[string]any{"command": strings.Join([]string{
		"mv sub/.git other/.git 2>/dev/null; echo mv1=$?",
		"mv sub/.git sub/g2 2>/dev/null; echo mv2=$?",
		plant + "sub/g2/config 2>/dev/null; mv sub/g2 sub/.git 2>/dev/null",
		"(" + plant + "sub/.git/config) 2>/dev/null; echo plant=$?",
	}, "; ")})
	for _, w := range []string{"mv1=0", "mv2=0", "plant=0"} {
		if strings.Contains(got, w) {
			t.Errorf("a move or write of the git dir was not refused in the sandbox (%s):\n%s", w, got)
		}
	}
	if !strings.Contains(got, "mv1=") {
		t.Fatalf("the command did not run: %s", got)
	}
	if q := "quarantined a git dir this command made, " + filepath.Join(app, "other", ".git"); strings.Contains(got, "mv1=1") && !strings.Contains(got, q) {
		t.Errorf("the copy mv made of the git dir is not named (%q):\n%s", q, got)
	}
	if after, _ := os.ReadFile(filepath.Join(sub, ".git", "config")); string(after) != string(configBefore) {
		t.Errorf("the nested repository's config changed:\n%s", after)
	}
	for _, p := range []string{filepath.Join(app, "other", ".git"), filepath.Join(sub, "g2")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s is in the place after the command:\n%s", p, got)
		}
	}
	for _, d := range []string{sub, filepath.Join(app, "other")} {
		cmd := exec.Command("git", "status", "--short")
		cmd.Dir = d
		cmd.CombinedOutput()
	}
	if _, err := os.Stat(mark); err == nil {
		t.Fatal("the planted core.fsmonitor ran on the host")
	}
}
