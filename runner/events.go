package runner

import (
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/supervisor"
)

// The kinds a run journals (the coder's own stream uses coderstream's, the
// broker approvals', the supervisor's model turns supervisor's). Stable
// strings on disk: see package journal.
const (
	// System lane: the run's course.
	KindRunStart             journal.Kind = "run-start" // RunStart
	KindRunEnd               journal.Kind = "run-end"   // RunEnd
	KindNotice               journal.Kind = "notice"
	KindError                journal.Kind = "error"
	KindWorkspace            journal.Kind = "workspace"
	KindSandbox              journal.Kind = "sandbox"
	KindSandboxOff           journal.Kind = "sandbox-off"
	KindNoPerCommandApproval journal.Kind = "no-per-command-approval"
	KindCoderStart           journal.Kind = "coder-start"
	KindCoderEnded           journal.Kind = "coder-ended"  // ended for a fresh start
	KindCoderDone            journal.Kind = "coder-done"   // the person said it is done
	KindCoderExit            journal.Kind = "coder-exit"   // CoderExit
	KindCoderFailed          journal.Kind = "coder-failed" // CoderFailedNote
	KindSteerFailed          journal.Kind = "steer-failed"
	KindRecovery             journal.Kind = "recovery"
	KindInPlaceChanged       journal.Kind = "in-place-changed" // InPlaceChanged: what an exec run changed

	// Verification (system lane; the checks themselves on the tool lane).
	KindVerifyPlan   journal.Kind = "verify-plan"
	KindVerifyStart               = supervisor.KindVerifyStart
	KindVerify                    = supervisor.KindVerify
	KindVerifyResult              = supervisor.KindVerifyResult

	// Landing.
	KindPatch          journal.Kind = "patch"
	KindPatchLeftOut   journal.Kind = "patch-left-out" // PatchLeftOut
	KindLanded         journal.Kind = "landed"
	KindReview         journal.Kind = "review"
	KindReviewApproved journal.Kind = "review-approved"
	KindReviewRejected journal.Kind = "review-rejected"
	KindApplyUndone    journal.Kind = "apply-undone"

	// Gates (supervisor and adversary lanes).
	KindGate        journal.Kind = "gate"
	KindGateFailed  journal.Kind = "gate-failed"  // GateFailure
	KindRelayFailed journal.Kind = "relay-failed" // GateFailure
	KindStuck       journal.Kind = "stuck"
	KindRestart     journal.Kind = "restart"
	KindFinding     journal.Kind = "finding"
	KindClear       journal.Kind = "clear"
	KindProbe       journal.Kind = "probe"

	// Steering and the person's messages through the supervisor: the
	// message to the coder (coder lane), and on the supervisor lane what
	// the person said, the standing decisions it made, and the replies
	// (Said).
	KindSteer                 = supervisor.KindSteer
	KindPerson   journal.Kind = "person"
	KindStanding journal.Kind = "standing"
	KindToPerson journal.Kind = "to-person"
	KindToCoder  journal.Kind = "to-coder"

	// KindNetDenied is a connection the proxy refused, with its reason
	// (tool lane).
	KindNetDenied journal.Kind = "net-denied"

	// KindQueued says a request also waits in the user service's
	// cross-run queue, under which id (approval lane).
	KindQueued journal.Kind = "queued"
	// KindExecDenied is a program the sandbox refused to run, being in
	// [service] denied_executables: ExecDeniedNote (tool lane).
	KindExecDenied journal.Kind = "exec-denied"
)

// RunStart is the data of a run-start event.
type RunStart struct {
	Apply   ApplyMode `json:"apply"`
	Checks  []Check   `json:"checks"`
	Coder   string    `json:"coder"`
	Project string    `json:"project"`
	// Sandbox is the sandbox's description in journals that carry it in
	// their run-start (the sandbox event does now); empty otherwise.
	Sandbox string `json:"sandbox,omitempty"`
	Task    string `json:"task"`
}

// AsRunStart decodes a run's start.
func AsRunStart(ev journal.Event) (RunStart, bool) {
	return journal.As[RunStart](ev, journal.System, KindRunStart)
}

// RunEnd is the data of a run-end event.
type RunEnd struct {
	Status Status `json:"status"`
	State  string `json:"state,omitempty"` // StateOf the run: the word every view tells it with
}

// AsRunEnd decodes a run's end.
func AsRunEnd(ev journal.Event) (RunEnd, bool) {
	return journal.As[RunEnd](ev, journal.System, KindRunEnd)
}

// CoderExit is the data of a coder-exit event.
type CoderExit struct {
	ExitCode int `json:"exit_code"`
}

// PatchLeftOut is the data of a patch-left-out event: what the coder made
// that no patch may carry.
type PatchLeftOut struct {
	Paths []string `json:"paths"`
}

// AsPatchLeftOut decodes a patch-left-out event.
func AsPatchLeftOut(ev journal.Event) (PatchLeftOut, bool) {
	return journal.As[PatchLeftOut](ev, journal.System, KindPatchLeftOut)
}

// GateFailure is the data of a gate-failed or relay-failed event: a gate
// that could not give its answer.
type GateFailure struct {
	Gate   string `json:"gate"`
	Reason string `json:"reason"`
}

func (g GateFailure) String() string { return g.Gate + ": failed (" + g.Reason + ")" }

// AsGateFailure decodes a gate failure on any of Sentinel's own lanes.
func AsGateFailure(ev journal.Event) (GateFailure, bool) {
	if ev.Lane == journal.Coder || ev.Lane == journal.Tool {
		return GateFailure{}, false // the coder's lanes never carry a gate's word
	}
	return journal.As[GateFailure](ev, ev.Lane, KindGateFailed, KindRelayFailed)
}

// Said is the data of the person's and the supervisor's messages on the
// supervisor lane (person, standing, to-person, to-coder): the text, and
// for to-coder the person's message it came from.
type Said struct {
	From string `json:"from,omitempty"`
	Text string `json:"text"`
}

// AsStanding decodes a standing decision the person made through the
// supervisor.
func AsStanding(ev journal.Event) (Said, bool) {
	return journal.As[Said](ev, journal.Supervisor, KindStanding)
}
