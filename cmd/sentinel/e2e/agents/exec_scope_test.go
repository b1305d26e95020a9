package agents

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// killerLoop is an approved command that leaves a loop behind, in its own
// session, which stops (SIGSTOP) and kills (SIGKILL) every process whose
// command line holds "hook NAME" (the hook's shell and Sentinel's inner
// hook) five times a second and notes each round in killer.log, pkill's
// complaints in killer.err. The pattern's brackets keep the loop's own sh
// from matching it. The command returns only once the loop has logged a
// round, so it is in its own session before the agent ends the command.
func killerLoop(name string) string {
	pat := "hook [" + name[:1] + "]" + name[1:]
	return `setsid sh -c 'while :; do pkill -STOP -f "` + pat + `" 2>>killer.err; ` +
		`pkill -9 -f "` + pat + `" 2>>killer.err; echo round >> killer.log; sleep 0.2; done' >/dev/null 2>&1 </dev/null & until [ -s killer.log ]; do sleep 0.1; done`
}

// killerHolds is the part of the killer tests after the loop was approved:
// the next call's card (asked) comes up and stays up through three more
// rounds of the loop, whose pkill is refused; the person denies it with a
// message; the call never runs (bypassed.txt) and no bypass is journaled.
func killerHolds(t *testing.T, tm *e2etest.Tmux, dir, asked string) {
	t.Helper()
	cardUp := e2etest.Has(asked, "[a] approve once")
	gone := func(s string) bool {
		_, err := os.Stat(filepath.Join(dir, "bypassed.txt"))
		return err == nil || strings.Contains(s, "run failed") || strings.Contains(s, "SENTINEL-EXITED")
	}
	s := tm.WaitFor("the card for "+asked+" (or the call ran)", func(s string) bool { return cardUp(s) || gone(s) })
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
	if s := tm.Screen(); !cardUp(s) || gone(s) {
		t.Fatalf("the card for %q went away while the loop ran\n%s", asked, s)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "killer.err")); !strings.Contains(string(b), "Operation not permitted") {
		t.Errorf("killer.err = %q: the loop's pkill was not refused", b)
	}
	tm.Keys("d")
	tm.WaitFor("the deny message prompt", e2etest.Has("message for the coder"))
	tm.TypeText("not this one")
	tm.Keys("Enter")
}

// killerAfter checks the end of a killer test: the asked call did not run
// and the run journaled no bypass.
func killerAfter(t *testing.T, dir string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "bypassed.txt")); err == nil {
		t.Errorf("bypassed.txt exists: the agent ran the refused call")
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
