//go:build unix

package claude

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// A coder's command that kills only the process holding a card (SIGKILL,
// which no process can answer) in place (`sentinel exec -- claude`) does
// not get the call run: the hook Claude Code 2.1.332 started
// (hookclient.Guard) denies it, the model hears why, and the session goes
// on. Seen failing without the guard (claude not in hookclient's
// guarded): Claude took the killed hook as no answer and fell back to its
// own "Do you want to proceed? 1. Yes" dialog, where one Enter in the
// coder's pane runs the call unchecked; Sentinel withdrew the card.
func TestExecClaudeKilledInnerHookBlocksTheCall(t *testing.T) {
	t.Parallel()
	e2etest.NeedClaude(t)
	dir := e2etest.ScriptRepo(t)
	const asked = `eval "echo ran > bypassed.txt"` // the policy asks about eval
	model := e2etest.StartModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Bash(asked)),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Bash("echo still going > after.txt")}},
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("All done.")}},
	})
	env := append(e2etest.ClaudeEnv(t, model), "XDG_CONFIG_HOME="+t.TempDir())
	tm := e2etest.StartSentinel(t, dir, env, "exec", "--allow-host", e2etest.ModelHost(model), "--", "claude", "Write the file.")
	s := tm.WaitArmed("the card for "+asked, e2etest.Has(asked, "[a] approve once"))
	_ = s
	hooks := claudeHookProcesses(t, tm)
	killed := 0
	for _, pid := range hooks {
		if slices.ContainsFunc(hooks, func(c int) bool { return parentOf(c) == pid }) {
			continue // a guard: its inner hook holds the card
		}
		if p, err := os.FindProcess(pid); err == nil && p.Kill() == nil { // SIGKILL
			killed++
		}
	}
	if killed == 0 {
		t.Fatalf("killed none of the hook processes %v", hooks)
	}
	s = tm.WaitFor("Claude's dialog, its next call, or the run stopped", func(s string) bool {
		return strings.Contains(s, "Do you want to proceed?") || strings.Contains(s, "run failed") || strings.Contains(s, "All done.")
	})
	t.Logf("after the kill:\n%s", s)
	if strings.Contains(s, "Do you want to proceed?") {
		t.Errorf("Claude fell back to its own dialog: an Enter there runs the call unchecked\n%s", s)
	}
	if _, err := os.Stat(filepath.Join(dir, "bypassed.txt")); err == nil {
		t.Errorf("bypassed.txt exists: Claude ran the call whose hook was killed\n%s", s)
	}
	const why = "killed by SIGKILL before Sentinel answered"
	rs := e2etest.ToolResults(model)
	if len(rs) == 0 || !rs[0].IsError || !strings.Contains(rs[0].Content, why) {
		t.Errorf("tool results = %s, want the first an error saying %q", e2etest.JSONOf(rs), why)
	}
	for _, ev := range e2etest.RunEvents(t, dir, e2etest.LastRun(t, dir)) {
		if ev.Lane == journal.System && ev.Kind == approvals.KindGateBypassed {
			t.Errorf("the run journaled a bypass: %s", ev.Text)
		}
	}
}

// claudeHookProcesses are the processes of Sentinel's Claude hook under
// tm's terminal, only this test's (other tests run the same helper's
// hooks at the same time).
func claudeHookProcesses(t *testing.T, tm *e2etest.Tmux) []int {
	t.Helper()
	// Claude runs its hook through sh -c, which stays its parent: the
	// anchor leaves the shell out.
	pattern := "^" + regexp.QuoteMeta(e2etest.Bin) + " hook claude"
	pane, _ := strconv.Atoi(strings.TrimSpace(tm.Cmd("display", "-p", "-t", "e2e", "#{pane_pid}")))
	out, _ := exec.Command("pgrep", "-f", pattern).Output() // exit 1: none
	var pids []int
	for _, f := range strings.Fields(string(out)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			continue
		}
		for p, i := pid, 0; p > 1 && i < 128; i++ {
			if p == pane {
				pids = append(pids, pid)
				break
			}
			p = parentOf(p)
		}
	}
	if len(pids) == 0 {
		t.Fatalf("no %s process under this test's terminal (pid %d)", pattern, pane)
	}
	return pids
}

// parentOf is pid's parent from /proc/PID/stat (0 when it cannot be read).
func parentOf(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(f[1])
	return n
}
