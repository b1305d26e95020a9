//go:build unix

package mcpserver

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/gitindex"
)

// Through a real exec call: an untracked-files cache and an fsmonitor
// record a command writes into the rw path's index (git trusts both
// instead of looking: with the person's fsmonitor hook answering
// "nothing changed", the fsmonitor record hides a changed file from the
// person's git status) are removed after the command and named in its
// answer, as sentinel exec does at the end of an in-place run.
func TestExecRemovesIndexCachesTheCommandWrote(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	app := f.rw
	gitInit(t, app)
	write(t, filepath.Join(app, "Makefile"), "all:\n\techo ok\n")
	for _, args := range [][]string{{"add", "Makefile"}, {"-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "one"}} {
		if out, err := exec.Command("git", append([]string{"-C", app}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	cfg := mustConfig(t, `exec_mode = "unrestricted"
[[paths]]
path = "`+app+`"
access = "rw"
`)
	cs, _ := stdioSession(t, cfg, Options{Helper: bin})
	write(t, filepath.Join(app, "s.sh"), strings.Join([]string{
		"printf '#!/bin/sh\\nexit 0\\n' > /tmp/fsm && chmod +x /tmp/fsm",
		"git update-index --untracked-cache",
		"git -c core.fsmonitor=/tmp/fsm -c core.fsmonitorHookVersion=1 update-index --fsmonitor",
		"git -c core.fsmonitor=/tmp/fsm -c core.fsmonitorHookVersion=1 -c core.untrackedCache=true status --porcelain >/dev/null",
		"echo done",
	}, " && ")+"\n")
	got := mustAllow(t, cs, "exec", map[string]any{"command": "sh s.sh"})
	if !strings.Contains(got, "done") {
		t.Fatalf("the command did not run: %s", got)
	}
	for _, w := range []string{"an fsmonitor record (FSMN)", "an untracked-files cache (UNTR)", "removed"} {
		if !strings.Contains(got, w) {
			t.Errorf("the answer lacks %q:\n%s", w, got)
		}
	}
	idx, err := gitindex.Read(filepath.Join(app, ".git"))
	if err != nil {
		t.Fatal(err)
	}
	if c, err := gitindex.CachesOf(idx); err != nil || c["UNTR"] != nil || c["FSMN"] != nil {
		t.Errorf("the caches are still in the index: %v %v", c, err)
	}
	if again := mustAllow(t, cs, "exec", map[string]any{"command": "true"}); strings.Contains(again, "(UNTR)") {
		t.Errorf("named again after a command that changed nothing:\n%s", again)
	}
}
