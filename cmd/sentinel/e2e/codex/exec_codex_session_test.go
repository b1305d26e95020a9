//go:build unix

package codex

import (
	"fmt"
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

// mcpHookKiller is e2etest.MCPHookKiller for this agent's hook.
var mcpHookKiller = e2etest.MCPHookKiller("codex")

// killerLoop is an approved command that leaves a loop behind, in its own
// session, which stops (SIGSTOP) and kills (SIGKILL) every process of
// Sentinel's Codex hook — guard and inner hook — five times a second and
// notes each round in killer.log, pkill's complaints in killer.err. The
// pattern's brackets keep the loop's own sh from matching it. The command
// returns only once the loop has logged a round, so it is in its own
// session before the agent ends the command's process group (on a loaded
// machine the loop was otherwise ended with it, and never ran).
const killerLoop = `setsid sh -c 'while :; do pkill -STOP -f "hook [c]odex" 2>>killer.err; ` +
	`pkill -9 -f "hook [c]odex" 2>>killer.err; echo round >> killer.log; sleep 0.2; done' >/dev/null 2>&1 </dev/null & until [ -s killer.log ]; do sleep 0.1; done`

// One `sentinel exec -- codex` session in tmux (one Codex start) serves
// the checks of what the coder's own processes can do to the hooks, each a
// subtest named for the protection it guards; each asked call is `eval`
// (the policy asks about it) writing a file of its own. The model's
// script:
//
//  1. asked call 1, its card up while the person's MCP server tries to
//     kill the hook holding it, denied (MCPServerCannotReachTheHooks);
//  2. killerLoop, approved; 3. asked call 2, its card up while the loop
//     runs, denied (BackgroundKillerCannotReachTheHooks);
//  4. asked call 3, whose inner hook the test kills, then an allowed echo
//     (KilledInnerHookBlocksTheCall);
//  5. asked call 4, whose guard and inner hook the test kills, then an
//     echo that must never run (KilledHookStopsTheRun: the run ends).
//
// Took in (issue 33, one Codex start instead of four): the former
// TestExecCodexMCPServerCannotReachTheHooks,
// TestExecCodexBackgroundKillerCannotReachTheHooks,
// TestExecCodexKilledInnerHookBlocksTheCall and
// TestExecCodexKilledHookStopsTheRun, each assertion kept under the
// subtest of the same name.
func TestExecCodexSessionHooksHold(t *testing.T) {
	t.Parallel()
	e2etest.NeedCodex(t)
	dir := e2etest.ScratchRepo(t)
	const (
		asked1 = `eval "echo ran > bypassed1.txt"`
		asked2 = `eval "echo ran > bypassed2.txt"`
		asked3 = `eval "echo ran > bypassed3.txt"`
		asked4 = `eval "echo ran > bypassed4.txt"`
	)
	model, env, host := codexExecEnv(t, "gpt-test", fr.Script{
		fr.Reply(fr.ExecCommand(asked1, "")),
		{When: fr.AfterOutput, Items: []fr.Item{fr.ExecCommand(killerLoop, "")}},
		{When: fr.AfterOutput, Items: []fr.Item{fr.ExecCommand(asked2, "")}},
		{When: fr.AfterOutput, Items: []fr.Item{fr.ExecCommand(asked3, "")}},
		{When: fr.AfterOutput, Items: []fr.Item{fr.ExecCommand("echo still going > after.txt", "")}},
		{When: fr.AfterOutput, Items: []fr.Item{fr.ExecCommand(asked4, "")}},
		{When: fr.AfterOutput, Items: []fr.Item{fr.ExecCommand("echo still going > after-bypass.txt", "")}},
		{When: fr.AfterOutput, Items: []fr.Item{fr.Text("All done.")}},
	})
	// The person's stdio MCP server (~/.codex/config.toml; Codex starts it
	// directly, not through a shell): the run's config starts it through
	// the system shell, which enters a signal scope
	// (agentutil.ScopeCommandServers).
	log := filepath.Join(dir, "watch.log")
	for _, kv := range env {
		if home, ok := strings.CutPrefix(kv, "HOME="); ok {
			e2etest.WriteFile(t, filepath.Join(home, ".codex", "config.toml"), e2etest.CodexStill+
				"[mcp_servers.watch]\ncommand = \"/usr/bin/perl\"\nargs = [\"-e\", '''\n"+mcpHookKiller+"''', \""+log+"\"]\n")
		}
	}
	tm := e2etest.StartSentinel(t, dir, env, "exec", "--allow-host", host, "--", "codex", "Write the files.")
	card := func(asked string) func(string) bool { return e2etest.Has(asked, "[a] approve once") }
	gone := func(s string) bool {
		return strings.Contains(s, "run failed") || strings.Contains(s, "All done.")
	}
	// deny answers the card up with msg, then waits for the next card
	// (next) or the session's end.
	deny := func(msg, next string) string {
		tm.Keys("d")
		tm.WaitFor("the deny message prompt", e2etest.Has("message for the coder"))
		tm.TypeText(msg)
		tm.Keys("Enter")
		return tm.WaitArmed("the card for "+next+" (or the run failed)", func(s string) bool { return card(next)(s) || gone(s) })
	}
	// refused checks that file was never written and that the model heard
	// want in a call's output.
	refused := func(t *testing.T, file, want, s string) {
		if _, err := os.Stat(filepath.Join(dir, file)); err == nil {
			t.Errorf("%s exists: Codex ran the refused call\n%s", file, s)
		}
		told := false
		for _, r := range model.Requests() {
			for _, o := range r.LastOutputs() {
				told = told || strings.Contains(o.Text, want)
			}
		}
		if !told {
			t.Errorf("the model never heard %q\n%s", want, s)
		}
	}
	noBypass := func(t *testing.T) {
		for _, ev := range e2etest.RunEvents(t, dir, e2etest.LastRun(t, dir)) {
			if ev.Lane == journal.System && ev.Kind == approvals.KindGateBypassed {
				t.Errorf("the run journaled a bypass: %s", ev.Text)
			}
		}
	}

	// In place, a stdio MCP server of the person's ~/.codex/config.toml
	// cannot signal the hooks: the server's watcher finds the hook waiting
	// on the person's card and is refused; the card stays up, the person's
	// deny reaches the model and the call never runs.
	if !tm.Check(t, "MCPServerCannotReachTheHooks", func(t *testing.T) {
		s := ""
		openCodex(tm, "the card for "+asked1+" (or the run failed)", func(sc string, armed bool) bool {
			s = sc
			return (armed && card(asked1)(sc)) || gone(sc)
		})
		if !card(asked1)(s) {
			t.Fatalf("the card for %q never came up\n%s", asked1, s)
		}
		watched := func() string { b, _ := os.ReadFile(log); return string(b) }
		e2etest.Eventually(t, "the server's watcher to find the hook", func() bool {
			return strings.Contains(watched(), "refused") || strings.Contains(watched(), "reached")
		}, func() string { return "watch.log " + watched() + "\n" + tm.Screen() })
		if w := watched(); strings.Contains(w, "reached") || !strings.Contains(w, "Operation not permitted") {
			t.Errorf("watch.log = %q: the MCP server's kill of the hook was not refused", w)
		}
		if s := tm.Screen(); !card(asked1)(s) || gone(s) {
			t.Fatalf("the card for %q went away while the server's watcher ran\n%s", asked1, s)
		}
		s = deny("not this one", "pkill -STOP")
		refused(t, "bypassed1.txt", "not this one", s)
	}) {
		t.FailNow() // the rest needs the session to have gone on
	}

	// An approved command's background loop that kills or stops every hook
	// process cannot reach them (internal/shellscope): each command Codex
	// starts is in its own signal scope, so the next call's card stays up,
	// the person's deny blocks it and it never runs. Seen failing without
	// the scope (the wrapper not shown): the loop killed the guard, Codex
	// ran the asked call (bypassed.txt written) and the run was stopped as
	// bypassed.
	if !tm.Check(t, "BackgroundKillerCannotReachTheHooks", func(t *testing.T) {
		tm.WaitArmed("the card for the killer loop", card("pkill -STOP"))
		tm.Keys("a")
		// The loop runs; the next call's card must stay up through several
		// of its rounds, its hooks neither killed nor stopped.
		s := tm.WaitFor("the card for "+asked2+" (or the run failed)", func(s string) bool { return card(asked2)(s) || gone(s) })
		if !card(asked2)(s) {
			t.Fatalf("the card for %q never came up: the loop reached the agent or its hooks\n%s", asked2, s)
		}
		killerLog := filepath.Join(dir, "killer.log")
		from := rounds(killerLog)
		e2etest.Eventually(t, "three more rounds of the killer loop with the card up", func() bool {
			return rounds(killerLog) >= from+3 || gone(tm.Screen())
		}, func() string {
			errs, _ := os.ReadFile(filepath.Join(dir, "killer.err"))
			return fmt.Sprintf("rounds %d (from %d), killer.err %q\n%s", rounds(killerLog), from, errs, tm.Screen())
		})
		if s := tm.Screen(); !card(asked2)(s) {
			t.Fatalf("the card for %q went away while the loop ran\n%s", asked2, s)
		}
		for _, pid := range hookProcesses(t, tm) {
			if st := procState(pid); st == "T" || st == "t" {
				t.Errorf("hook process %d is stopped (state %s)", pid, st)
			}
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "killer.err")); !strings.Contains(string(b), "Operation not permitted") {
			t.Errorf("killer.err = %q: the loop's pkill was not refused", b)
		}
		s = deny("not this one either", asked3)
		refused(t, "bypassed2.txt", "not this one either", s)
		noBypass(t)
	}) {
		t.FailNow()
	}

	// A coder's command that kills only the process holding a card
	// (SIGKILL, which no process can answer) does not get the call run:
	// the hook Codex started (hookclient.Guard) denies it, the model hears
	// why, and the run goes on. Seen failing without the guard: the one
	// hook process was killed, Codex ran the command (bypassed.txt
	// written) and the run was stopped as bypassed.
	if !tm.Check(t, "KilledInnerHookBlocksTheCall", func(t *testing.T) {
		tm.WaitArmed("the card for "+asked3, card(asked3))
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
		s := tm.WaitArmed("the card for "+asked4+" after the refused call and the echo (or the run stopped)", func(s string) bool {
			return card(asked4)(s) || gone(s)
		})
		if b, err := os.ReadFile(filepath.Join(dir, "after.txt")); err != nil || string(b) != "still going\n" {
			t.Errorf("after.txt = %q (%v): the run did not go on after the refused call\n%s", b, err, s)
		}
		const why = "killed by SIGKILL before Sentinel answered"
		told := false
		for _, r := range model.Requests() {
			for _, o := range r.LastOutputs() {
				told = told || strings.Contains(o.Text, "blocked by PreToolUse hook") && strings.Contains(o.Text, why)
			}
		}
		if !told {
			t.Errorf("the model never heard %q\n%s", why, s)
		}
		refused(t, "bypassed3.txt", why, s)
		noBypass(t)
	}) {
		t.FailNow()
	}

	// Codex runs a call whose PreToolUse hook is killed (0.171.0): while
	// the card for a command waits, its hook dies — as if another of the
	// coder's processes killed it, the guard Codex waits on first and then
	// the process holding the card (hookclient.Guard) — and Codex runs the
	// command. Sentinel cannot undo that one call, but it sees its result,
	// journals the gate as bypassed, stops the coder at once and ends the
	// exec failed.
	tm.Check(t, "KilledHookStopsTheRun", func(t *testing.T) {
		if s := tm.Screen(); !card(asked4)(s) {
			t.Fatalf("the card for %q is not up\n%s", asked4, s)
		}
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
		if _, err := os.Stat(filepath.Join(dir, "bypassed4.txt")); err != nil {
			t.Logf("Codex did not run the call whose hook died (%v): it may fail closed now", err)
		}
		if _, err := os.Stat(filepath.Join(dir, "after-bypass.txt")); err == nil {
			t.Error("the coder went on after the bypass: after-bypass.txt was written")
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
	})
}

// rounds is how many lines the killer loop has written to path.
func rounds(path string) int {
	b, _ := os.ReadFile(path)
	return strings.Count(string(b), "\n")
}

// procState is pid's state letter from /proc/PID/stat ("" when gone).
func procState(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 1 {
		return ""
	}
	return f[0]
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
