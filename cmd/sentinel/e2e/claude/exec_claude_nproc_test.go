//go:build linux

package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
)

// As root the sandbox's pids cgroup is what bounds it; this re-runs the
// RLIMIT_NPROC case as the unprivileged CI user, where Sentinel makes no
// cgroup.
func TestExecClaudeNprocFillerUnprivileged(t *testing.T) {
	t.Parallel() // it waits on its re-run as sentinel-ci and changes no process-wide state
	e2etest.NeedClaude(t)
	e2etest.RerunUnprivileged(t, e2etest.Bin, []string{"TestExecClaudeNprocFillerCannotSkipTheHook"})
}

// Not root, no pids cgroup: a command that takes every process its
// RLIMIT_NPROC allows, and keeps them, leaves Claude Code room to start
// the next call's hook (internal/shellscope gives a command's shell a
// limit a sixteenth below the sandbox's, and refuses it prlimit on the
// agent), so the asked call's card comes up and the person's deny holds;
// the call never runs.
func TestExecClaudeNprocFillerCannotSkipTheHook(t *testing.T) {
	if os.Getuid() == 0 {
		t.Skip("as root the pids cgroup bounds the sandbox: TestExecClaudeNprocFillerUnprivileged runs this as sentinel-ci")
	}
	t.Parallel()
	e2etest.NeedClaude(t)
	dir := e2etest.ScriptRepo(t)
	e2etest.WriteFile(t, filepath.Join(dir, "fill.sh"), e2etest.NprocFiller)
	const asked = `eval "echo ran > bypassed.txt"` // the policy asks about eval
	model := e2etest.StartModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Bash(e2etest.NprocFill)),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Bash(asked)}},
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("All done.")}},
	})
	env := append(e2etest.ClaudeEnv(t, model), "SHELL=/bin/bash")
	home := strings.TrimPrefix(env[0], "HOME=")
	// A lower limit than the default's 4,096, for a quick fill.
	e2etest.WriteFile(t, filepath.Join(home, ".config", "sentinel", "config.toml"), "[sandbox]\npids_max = 300\n")
	env = append(env, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
	tm := e2etest.StartSentinel(t, dir, env, "exec", "--allow-host", e2etest.ModelHost(model), "--", "claude", "Fill, then write the file.")
	fillCard := e2etest.Has("fill.sh", "[a] approve once")
	full := func() bool { _, err := os.Stat(filepath.Join(dir, "fill.log")); return err == nil }
	if s := tm.WaitFor("the filler's card or the filler full", func(s string) bool { return fillCard(s) || full() }); fillCard(s) && !full() {
		tm.Keys("a")
	}
	cardUp := e2etest.Has(asked, "[a] approve once")
	gone := func(s string) bool {
		return strings.Contains(s, "run failed") || strings.Contains(s, "Do you want to proceed?") || strings.Contains(s, "All done.")
	}
	s := tm.WaitFor("the card for "+asked+" (or the run failed, or the turn ended)", func(s string) bool { return cardUp(s) || gone(s) })
	fill, _ := os.ReadFile(filepath.Join(dir, "fill.log"))
	t.Logf("fill.log: %s", fill)
	if _, err := os.Stat(filepath.Join(dir, "bypassed.txt")); err == nil {
		t.Fatalf("bypassed.txt exists: Claude ran the call whose hook could not start\n%s", s)
	}
	if !cardUp(s) {
		t.Fatalf("the card for %q never came up: the filler kept the hook from starting\n%s", asked, s)
	}
	if !strings.HasPrefix(string(fill), "full ") {
		t.Errorf("fill.log = %q: the filler never filled its limit", fill)
	}
	tm.Keys("d")
	tm.WaitFor("the deny message prompt", e2etest.Has("message for the coder"))
	tm.TypeText("not this one")
	tm.Keys("Enter")
	tm.WaitRequests(model, 3)
	if _, err := os.Stat(filepath.Join(dir, "bypassed.txt")); err == nil {
		t.Errorf("bypassed.txt exists: Claude ran the denied call")
	}
}
