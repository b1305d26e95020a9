package main

import (
	"fmt"
	"strings"
	"time"
)

// pressUntil sends key until cond shows on the screen: a busy machine can
// still be inside a new screen's key guard when the first press arrives.
func (tm *tmuxRun) pressUntil(key, what string, cond func(string) bool) {
	tm.t.Helper()
	for i := 0; i < 5; i++ {
		tm.keys(key)
		for j := 0; j < 30; j++ {
			if cond(tm.screen()) {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	tm.waitFor(what, cond)
}

// guardNotice is what a new card or review screen shows, instead of its
// keys, while it ignores keys (tui.DefaultGuard).
const guardNotice = "keys are ignored for a moment"

// waitArmed waits until cond shows and the screen's key guard has passed:
// the keys line is drawn only once keys are taken, so a key sent after
// this answers the screen instead of being dropped.
func (tm *tmuxRun) waitArmed(what string, cond func(string) bool) string {
	tm.t.Helper()
	return tm.waitFor(what+", its keys taken", func(s string) bool { return cond(s) && !strings.Contains(s, guardNotice) })
}

// landFromReview answers the review screen as a person who approves it:
// a, then y at "Land n of n file(s)?", then q once the run has landed; the
// binary must exit 0.
func (tm *tmuxRun) landFromReview(files int) {
	tm.t.Helper()
	tm.waitArmed("the review screen", has("[a] approve: land"))
	tm.pressUntil("a", "the landing question", has(fmt.Sprintf("Land %d of %d file(s)", files, files)))
	tm.keys("y")
	tm.waitFor("the run's end", has("run landed"))
	tm.keys("q")
	if s := tm.waitFor("sentinel to exit", has("SENTINEL-EXITED")); !strings.Contains(s, "SENTINEL-EXITED 0") {
		tm.t.Errorf("sentinel exited with an error:\n%s", s)
	}
}
