package supervisor

import "github.com/sentinelhq/sentinel/internal/journal"

// The kinds of the supervisor lane's model turns: a TurnRecord's Role is its
// event's kind.
const (
	KindJudge     journal.Kind = "judge"     // a gray-zone request judged
	KindAdvice    journal.Kind = "advice"    // advice shown on a person's card
	KindReview    journal.Kind = "review"    // the completion review
	KindAdversary journal.Kind = "adversary" // the adversarial tester's probes
	KindRelay     journal.Kind = "relay"     // a person's message relayed
)

// Kinds the runner emits and the supervisor's History reads. They are
// declared here because the runner imports the supervisor, never the other
// way round; the runner emits them through these constants (runner.KindSteer
// and the verify kinds are the same constants).
const (
	// KindSteer is a message sent to the coder to steer it (coder lane; on
	// the supervisor lane, one a demo scenario scripted).
	KindSteer journal.Kind = "steer"
	// KindVerifyStart and KindVerify are one check starting and its result
	// (tool lane); KindVerifyResult is the verification's outcome (system).
	KindVerifyStart  journal.Kind = "verify-start"
	KindVerify       journal.Kind = "verify"
	KindVerifyResult journal.Kind = "verify-result"
)

// turnKinds are the kinds a TurnRecord is journaled under.
var turnKinds = []journal.Kind{KindJudge, KindAdvice, KindReview, KindAdversary, KindRelay}

// AsTurn decodes a model turn the Ledger journaled on the supervisor lane.
func AsTurn(ev journal.Event) (TurnRecord, bool) {
	return journal.As[TurnRecord](ev, journal.Supervisor, turnKinds...)
}
