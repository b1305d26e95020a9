package codex

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
	fr "github.com/sentinelhq/sentinel/internal/fakeresponses"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// Codex runs a call whose PreToolUse hook is killed (0.171.0): in place,
// while the card for a command waits, its hook dies — as if another of the
// coder's processes killed it, the guard Codex waits on first and then the
// process holding the card (hookclient.Guard) — and Codex runs the command.
// Sentinel cannot undo that one call, but it sees its result, journals the
// gate as bypassed, stops the coder at once and ends the exec failed.
func TestExecCodexKilledHookStopsTheRun(t *testing.T) {
	t.Parallel()
	e2etest.NeedCodex(t)
	dir := e2etest.ScratchRepo(t)
	const asked = `eval "echo ran > bypassed.txt"` // the policy asks about eval
	_, env, host := codexExecEnv(t, "gpt-test", fr.Script{
		fr.Reply(fr.ExecCommand(asked, "")),
		{When: fr.AfterOutput, Items: []fr.Item{fr.ExecCommand("echo still going > after.txt", "")}},
		{When: fr.AfterOutput, Items: []fr.Item{fr.Text("All done.")}},
	})
	tm := e2etest.StartSentinel(t, dir, env, "exec", "--allow-host", host, "--", "codex", "Write the file.")
	openCodexUntil(tm, "the card for "+asked, e2etest.Has(asked, "[a] approve once"))
	hooks := hookProcesses(t, tm)
	// The guard Codex waits on first: killed after it, the process
	// holding the card would leave the guard time to deny.
	var guards, inner []int
	for _, pid := range hooks {
		if slices.Contains(hooks, parentOf(pid)) {
			inner = append(inner, pid)
		} else {
			guards = append(guards, pid)
		}
	}
	for _, pid := range append(guards, inner...) {
		if p, err := os.FindProcess(pid); err == nil {
			_ = p.Kill() // SIGKILL; an error: it ended meanwhile
		}
	}
	tm.WaitFor("the run stopped, failed", e2etest.Has("run failed"))
	tm.Keys("q")
	s := tm.WaitFor("sentinel to exit", e2etest.Has("SENTINEL-EXITED"))
	if strings.Contains(s, "SENTINEL-EXITED 0") {
		t.Errorf("the exec ended 0 after its gate was bypassed:\n%s", s)
	}
	if _, err := os.Stat(filepath.Join(dir, "bypassed.txt")); err != nil {
		t.Logf("Codex did not run the call whose hook died (%v): it may fail closed now", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "after.txt")); err == nil {
		t.Error("the coder went on after the bypass: after.txt was written")
	}
	found := false
	for _, ev := range e2etest.RunEvents(t, dir, e2etest.LastRun(t, dir)) {
		if ev.Lane == journal.System && ev.Kind == approvals.KindGateBypassed {
			found = true
		}
	}
	if !found {
		t.Errorf("no %s event in the run's journal; screen:\n%s", approvals.KindGateBypassed, s)
	}
}

// A coder's command that kills only the process holding a card (SIGKILL,
// which no process can answer) does not get the call run: the hook Codex
// started (hookclient.Guard) denies it, the model hears why, and the run
// goes on. Seen failing without the guard: the one hook process was
// killed, Codex ran the command (bypassed.txt written) and the run was
// stopped as bypassed.
func TestExecCodexKilledInnerHookBlocksTheCall(t *testing.T) {
	t.Parallel()
	e2etest.NeedCodex(t)
	dir := e2etest.ScratchRepo(t)
	const asked = `eval "echo ran > bypassed.txt"` // the policy asks about eval
	model, env, host := codexExecEnv(t, "gpt-test", fr.Script{
		fr.Reply(fr.ExecCommand(asked, "")),
		{When: fr.AfterOutput, Items: []fr.Item{fr.ExecCommand("echo still going > after.txt", "")}},
		{When: fr.AfterOutput, Items: []fr.Item{fr.Text("All done.")}},
	})
	tm := e2etest.StartSentinel(t, dir, env, "exec", "--allow-host", host, "--", "codex", "Write the file.")
	openCodexUntil(tm, "the card for "+asked, e2etest.Has(asked, "[a] approve once"))
	hooks := hookProcesses(t, tm)
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
	const why = "killed by SIGKILL before Sentinel answered"
	blocked := e2etest.Has("Blocked by hook", "All done.")
	s := tm.WaitFor("Codex showing the hook's block and ending its turn, or the run stopped", func(s string) bool {
		return blocked(s) || strings.Contains(s, "run failed")
	})
	if _, err := os.Stat(filepath.Join(dir, "bypassed.txt")); err == nil {
		t.Errorf("bypassed.txt exists: Codex ran the call whose hook was killed\n%s", s)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "after.txt")); err != nil || string(b) != "still going\n" {
		t.Errorf("after.txt = %q (%v): the run did not go on after the refused call\n%s", b, err, s)
	}
	told := false
	for _, r := range model.Requests() {
		for _, o := range r.LastOutputs() {
			told = told || strings.Contains(o.Text, "blocked by PreToolUse hook") && strings.Contains(o.Text, why)
		}
	}
	if !told {
		t.Errorf("the model never heard %q\n%s", why, s)
	}
	for _, ev := range e2etest.RunEvents(t, dir, e2etest.LastRun(t, dir)) {
		if ev.Lane == journal.System && ev.Kind == approvals.KindGateBypassed {
			t.Errorf("the run journaled a bypass: %s", ev.Text)
		}
	}
}

// hookProcesses are the processes of Sentinel's Codex hook under tm's
// terminal. Only this test's: other tests run the same helper's hooks at
// the same time (this package's TestExecCodexInteractiveInTmux among
// them), and a pkill of the pattern alone killed theirs — in CI the other
// test's card was withdrawn and its denied command ran.
func hookProcesses(t *testing.T, tm *e2etest.Tmux) []int {
	t.Helper()
	pattern := regexp.QuoteMeta(e2etest.HelperBin) + " hook codex"
	pane, _ := strconv.Atoi(strings.TrimSpace(tm.Cmd("display", "-p", "-t", "e2e", "#{pane_pid}")))
	hooks := descendantsMatching(t, pane, pattern)
	if len(hooks) == 0 {
		t.Fatalf("no %s process under this test's terminal (pid %d)", pattern, pane)
	}
	return hooks
}

// descendantsMatching are the processes whose command line matches pattern
// (pgrep -f) and whose parents, read from /proc, reach root.
func descendantsMatching(t *testing.T, root int, pattern string) []int {
	t.Helper()
	out, _ := exec.Command("pgrep", "-f", pattern).Output() // exit 1: none
	var pids []int
	for _, f := range strings.Fields(string(out)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			continue
		}
		for p, i := pid, 0; p > 1 && i < 128; i++ {
			if p == root {
				pids = append(pids, pid)
				break
			}
			p = parentOf(p)
		}
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
