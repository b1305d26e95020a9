//go:build linux

package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	fr "github.com/sentinelhq/sentinel/internal/fakeresponses"
)

// As root the sandbox's pids cgroup is what bounds it; this re-runs the
// RLIMIT_NPROC case as the unprivileged CI user, where Sentinel makes no
// cgroup.
func TestExecCodexNprocFillerUnprivileged(t *testing.T) {
	t.Parallel() // it waits on its re-run as sentinel-ci and changes no process-wide state
	e2etest.NeedCodex(t)
	e2etest.RerunUnprivileged(t, e2etest.Bin, []string{"TestExecCodexNprocFillerCannotSkipTheHook"})
}

// Not root, no pids cgroup: a command that takes every process its
// RLIMIT_NPROC allows, and keeps them, leaves Codex room to start the next
// call's hook (internal/shellscope: a command's shell gets a limit a
// sixteenth below the sandbox's and no prlimit on the agent). Codex runs
// a call whose hook failed to start (pids28), so the card coming up and
// the deny holding is what closes it.
func TestExecCodexNprocFillerCannotSkipTheHook(t *testing.T) {
	if os.Getuid() == 0 {
		t.Skip("as root the pids cgroup bounds the sandbox: TestExecCodexNprocFillerUnprivileged runs this as sentinel-ci")
	}
	t.Parallel()
	e2etest.NeedCodex(t)
	dir := e2etest.ScratchRepo(t)
	e2etest.WriteFile(t, filepath.Join(dir, "fill.sh"), e2etest.NprocFiller)
	const asked = `eval "echo ran > bypassed.txt"` // the policy asks about eval
	_, env, host := codexExecEnv(t, "gpt-test", fr.Script{
		fr.Reply(fr.FunctionCall("exec_command", map[string]any{"cmd": e2etest.NprocFill, "yield_time_ms": 120000})),
		{When: fr.AfterOutput, Items: []fr.Item{fr.ExecCommand(asked, "")}},
		{When: fr.AfterOutput, Items: []fr.Item{fr.Text("All done.")}},
	})
	home := strings.TrimPrefix(env[0], "HOME=")
	e2etest.WriteFile(t, filepath.Join(home, ".config", "sentinel", "config.toml"), "[sandbox]\npids_max = 300\n")
	env = append(env, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
	tm := e2etest.StartSentinel(t, dir, env, "exec", "--allow-host", host, "--", "codex", "Fill, then write the file.")
	cardUp := e2etest.Has(asked, "[a] approve once")
	openCodex(tm, "the card for "+asked+", the turn's end or the run stopped", func(s string, armed bool) bool {
		return armed && cardUp(s) || strings.Contains(s, "All done.") || strings.Contains(s, "run failed")
	})
	s := tm.Screen()
	fill, _ := os.ReadFile(filepath.Join(dir, "fill.log"))
	t.Logf("fill.log: %s", fill)
	if _, err := os.Stat(filepath.Join(dir, "bypassed.txt")); err == nil {
		t.Fatalf("bypassed.txt exists: Codex ran the call whose hook could not start\n%s", s)
	}
	if !cardUp(s) {
		t.Fatalf("the card for %q never came up: the filler kept the hook from starting\n%s", asked, s)
	}
	if !strings.HasPrefix(string(fill), "full ") {
		t.Errorf("fill.log = %q: the filler never filled its limit", fill)
	}
	tm.Keys("d")
	tm.WaitFor("the deny message prompt", e2etest.Has("message for the coder"))
	tm.Keys("Enter")
	tm.WaitFor("the turn's end", e2etest.Has("All done."))
	if _, err := os.Stat(filepath.Join(dir, "bypassed.txt")); err == nil {
		t.Errorf("bypassed.txt exists: Codex ran the denied call")
	}
}
