//go:build unix

package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// pidFiller is a command that fills the sandbox's pids limit and keeps it
// full: a child in its own session forks sleepers until fork fails, notes
// how many in full.txt, then keeps taking every pid freed (a fork every
// 10 ms); the command itself waits for full.txt without forking and ends.
const pidFiller = `import os, signal, sys, time
if os.fork():
    while not os.path.exists("full.txt"):
        time.sleep(0.05)
    sys.exit(0)
os.setsid()
null = os.open(os.devnull, os.O_RDWR)
for fd in (0, 1, 2):
    os.dup2(null, fd)
n, told = 0, False
while True:
    try:
        if os.fork() == 0:
            signal.pause()
            os._exit(0)
        n += 1
    except OSError:
        if not told:
            with open("full.tmp", "w") as f:
                f.write("%d\n" % n)
            os.rename("full.tmp", "full.txt")
            told = True
        time.sleep(0.01)
`

// A command that fills the sandbox's pids limit (and keeps taking every
// pid freed) leaves Claude Code unable to start the hook for its next
// call. That call must not run unapproved: here a Write of .envrc (a
// run-later file the policy never allows without the person), which
// needs no process of its own once the hook is out of the way.
func TestExecClaudePidExhaustionDoesNotRunTheNextCallUnapproved(t *testing.T) {
	t.Parallel()
	e2etest.NeedClaude(t)
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3 (the filler)")
	}
	dir := e2etest.ScriptRepo(t)
	e2etest.WriteFile(t, filepath.Join(dir, "fill.py"), pidFiller)
	e2etest.Git(t, dir, "add", "fill.py")
	e2etest.Git(t, dir, "commit", "-qm", "the filler")
	model := e2etest.StartModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Bash("python3 fill.py")),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Write(filepath.Join(dir, ".envrc"), "echo pwned > bypassed.txt\n")}},
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("All done.")}},
	})
	cfg := t.TempDir()
	e2etest.WriteFile(t, filepath.Join(cfg, "sentinel", "config.toml"), "[sandbox]\npids_max = 160\n")
	env := append(e2etest.ClaudeEnv(t, model), "XDG_CONFIG_HOME="+cfg, "SHELL=/bin/bash")
	tm := e2etest.StartSentinel(t, dir, env, "exec", "--allow-host", e2etest.ModelHost(model), "--", "claude", "Fill, then write .envrc.")
	tm.WaitArmed("the card for the filler", e2etest.Has("python3 fill.py", "[a] approve once"))
	tm.Keys("a")
	e2etest.Eventually(t, "the filler to fill the pids limit", func() bool {
		_, err := os.Stat(filepath.Join(dir, "full.txt"))
		return err == nil
	}, func() string { return tm.Screen() })
	cardUp := e2etest.Has(".envrc", "[a] approve once")
	ended := func(s string) bool {
		return len(model.Requests()) >= 3 || strings.Contains(s, "run failed") || strings.Contains(s, "SENTINEL-EXITED")
	}
	s := tm.WaitFor("the card for the .envrc write, Claude's next request, or the run's end", func(s string) bool {
		_, err := os.Stat(filepath.Join(dir, ".envrc"))
		return cardUp(s) || ended(s) || err == nil
	})
	full, _ := os.ReadFile(filepath.Join(dir, "full.txt"))
	t.Logf("the filler held %s pids; card up %v; model requests %d", strings.TrimSpace(string(full)), cardUp(s), len(model.Requests()))
	if cardUp(s) {
		tm.Keys("d")
		tm.WaitFor("the deny message prompt", e2etest.Has("message for the coder"))
		tm.TypeText("not this one")
		tm.Keys("Enter")
		tm.WaitRequests(model, 3)
	}
	if b, err := os.ReadFile(filepath.Join(dir, ".envrc")); err == nil {
		t.Errorf(".envrc was written (%q): the call ran with no hook to ask\n%s", b, tm.Screen())
	}
	for _, ev := range e2etest.RunEvents(t, dir, e2etest.LastRun(t, dir)) {
		if ev.Lane == journal.System && ev.Kind == approvals.KindGateBypassed {
			t.Logf("the run journaled a bypass: %s", ev.Text)
		}
	}
	if rs := e2etest.ToolResults(model); len(rs) >= 2 {
		t.Logf("the model was told of the write: %s", e2etest.JSONOf(rs[1]))
	}
}
