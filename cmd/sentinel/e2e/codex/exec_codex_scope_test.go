package codex

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	fr "github.com/sentinelhq/sentinel/internal/fakeresponses"
	"github.com/sentinelhq/sentinel/internal/journal"
)

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

// An approved command's background loop that kills or stops every hook
// process cannot reach them (internal/shellscope): each command Codex
// starts is in its own signal scope, so the next call's card stays up, the
// person's deny blocks it and it never runs. Seen failing without the
// scope (the wrapper not shown): the loop killed the guard, Codex ran the
// asked call (bypassed.txt written) and the run was stopped as bypassed.
func TestExecCodexBackgroundKillerCannotReachTheHooks(t *testing.T) {
	t.Parallel()
	e2etest.NeedCodex(t)
	dir := e2etest.ScratchRepo(t)
	const asked = `eval "echo ran > bypassed.txt"` // the policy asks about eval
	model, env, host := codexExecEnv(t, "gpt-test", fr.Script{
		fr.Reply(fr.ExecCommand(killerLoop, "")),
		{When: fr.AfterOutput, Items: []fr.Item{fr.ExecCommand(asked, "")}},
		{When: fr.AfterOutput, Items: []fr.Item{fr.Text("All done.")}},
	})
	tm := e2etest.StartSentinel(t, dir, env, "exec", "--allow-host", host, "--", "codex", "Start the loop, then write the file.")
	openCodexUntil(tm, "the card for the killer loop", e2etest.Has("pkill -STOP", "[a] approve once"))
	tm.Keys("a")
	// The loop runs; the next call's card must stay up through several of
	// its rounds, its hooks neither killed nor stopped.
	cardUp := e2etest.Has(asked, "[a] approve once")
	gone := func(s string) bool {
		return strings.Contains(s, "run failed") || strings.Contains(s, "Blocked by hook")
	}
	s := tm.WaitFor("the card for "+asked+" (or the run failed)", func(s string) bool { return cardUp(s) || gone(s) })
	if !cardUp(s) {
		t.Fatalf("the card for %q never came up: the loop reached the agent or its hooks\n%s", asked, s)
	}
	log := filepath.Join(dir, "killer.log")
	from := rounds(log)
	e2etest.Eventually(t, "three more rounds of the killer loop with the card up", func() bool {
		return rounds(log) >= from+3 || gone(tm.Screen())
	}, func() string {
		errs, _ := os.ReadFile(filepath.Join(dir, "killer.err"))
		return fmt.Sprintf("rounds %d (from %d), killer.err %q\n%s", rounds(log), from, errs, tm.Screen())
	})
	if s := tm.Screen(); !cardUp(s) {
		t.Fatalf("the card for %q went away while the loop ran\n%s", asked, s)
	}
	for _, pid := range hookProcesses(t, tm) {
		if st := procState(pid); st == "T" || st == "t" {
			t.Errorf("hook process %d is stopped (state %s)", pid, st)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "killer.err")); !strings.Contains(string(b), "Operation not permitted") {
		t.Errorf("killer.err = %q: the loop's pkill was not refused", b)
	}
	tm.Keys("d")
	tm.WaitFor("the deny message prompt", e2etest.Has("message for the coder"))
	tm.TypeText("not this one")
	tm.Keys("Enter")
	s = tm.WaitFor("Codex showing the hook's block and ending its turn", e2etest.Has("Blocked by hook", "All done."))
	if _, err := os.Stat(filepath.Join(dir, "bypassed.txt")); err == nil {
		t.Errorf("bypassed.txt exists: Codex ran the refused call\n%s", s)
	}
	told := false
	for _, r := range model.Requests() {
		for _, o := range r.LastOutputs() {
			told = told || strings.Contains(o.Text, "not this one")
		}
	}
	if !told {
		t.Errorf("the model never heard the person's deny\n%s", s)
	}
	for _, ev := range e2etest.RunEvents(t, dir, e2etest.LastRun(t, dir)) {
		if ev.Lane == journal.System && ev.Kind == approvals.KindGateBypassed {
			t.Errorf("the run journaled a bypass: %s", ev.Text)
		}
	}
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
