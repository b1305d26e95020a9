package runner

import (
	"fmt"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// A step between the coder's end and the landing can take seconds on a
// loaded machine (measured at load 20: the patch 10.5 s, the clean copy for
// verification 4.6 s, the landing 4.0 s), and each was silent. sayWhile
// runs such a step and, once it has taken longer than seedWaitEvery, says
// every seedWaitEvery what it does and for how long: a progress event on
// the system lane, which the TUI shows on its spinner line and --plain as
// a line. A step done sooner says nothing.
func sayWhile(emit func(lane journal.Lane, kind journal.Kind, text string, data any), what string, fn func() error) error {
	if emit == nil {
		return fn()
	}
	return whileSaying(time.Now(), func(d time.Duration) {
		p := CheckProgress{Command: what, ElapsedMS: d.Milliseconds()}
		emit(journal.System, KindVerifyProgress, fmt.Sprintf("%s: %s", what, d.Round(time.Second)), p)
	}, fn)
}

// What the steps say.
const (
	stepPatch     = "working out the coder's change"
	stepCleanCopy = "making a clean copy of the project for verification"
	stepLanding   = "landing the change"
	stepCleanUp   = "removing the verification's clean copy and build cache"
)
