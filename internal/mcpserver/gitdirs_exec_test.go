//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Through a real exec call: renaming the parent of the person's nested
// repository leaves the repository alone (here the sandbox refuses the
// rename, EBUSY, as the parent holds a mount; where it succeeds the
// repository is named as moved: TestSweepLeavesAMovedRepositoryAlone), a
// repository the command made is quarantined, and the audit record
// carries the sweep's lines.
func TestExecMovingAParentKeepsThePersonsRepository(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	app := f.rw
	gitInit(t, filepath.Join(app, "vendor", "lib"))
	cfg := mustConfig(t, `exec_mode = "unrestricted"
[[paths]]
path = "`+app+`"
access = "rw"
`)
	cs, srv := stdioSession(t, cfg, Options{Helper: bin})
	got := mustAllow(t, cs, "exec", map[string]any{"command": "git init -q made; mv vendor vendor2 2>/dev/null; echo done"})
	if !strings.Contains(got, "done") {
		t.Fatalf("the command did not run: %s", got)
	}
	made := "quarantined a git dir this command made, " + filepath.Join(app, "made", ".git")
	want := []string{made}
	if _, err := os.Stat(filepath.Join(app, "vendor2")); err == nil {
		want = append(want, "moved: "+filepath.Join(app, "vendor", "lib", ".git")+" → "+filepath.Join(app, "vendor2", "lib", ".git"))
		if _, err := os.Stat(filepath.Join(app, "vendor2", "lib", ".git", "HEAD")); err != nil {
			t.Errorf("the person's repository is not where the command moved it: %v\n%s", err, got)
		}
	} else if _, err := os.Stat(filepath.Join(app, "vendor", "lib", ".git", "HEAD")); err != nil {
		t.Errorf("the person's repository is gone: %v\n%s", err, got)
	}
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("the answer lacks %q:\n%s", w, got)
		}
	}
	if strings.Contains(got, "made, "+filepath.Join(app, "vendor")) {
		t.Errorf("the person's repository was quarantined:\n%s", got)
	}
	calls := auditCalls(t, srv)
	if !slices.ContainsFunc(calls, func(c Call) bool {
		s := strings.Join(c.GitSweep, "\n")
		return c.Tool == "exec" && strings.Contains(s, made)
	}) {
		t.Errorf("no audit record names the sweep's lines: %+v", calls)
	}
}
