package runner

import (
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/supervisor"
)

// EventKind is one kind of event the run journals on one lane: the type of
// its data (nil: its text is all it says), and, when the run's reports
// (PROGRESS.md, DECISIONS.md, FINAL_REPORT.md) leave it out, why. Every
// view shows every kind: the TUI and --plain by its text at the least, the
// reports unless NotInReports says otherwise.
type EventKind struct {
	Lane    journal.Lane
	Kind    journal.Kind
	Payload any // a value of the data's type; nil: no data
	// NotInReports is why the reports leave this kind out ("": they
	// show it).
	NotInReports string
}

// EventKinds is every kind the run journals (the coder's own stream is
// coderstream's, the broker's approvals', the model turns supervisor's).
// A kind declared in this package and missing here fails
// TestEveryKindIsInTheTable; a view that drops a kind here fails
// TestEveryRunKindHasAReaderInEveryView (package tui) or
// TestEventTableSaysWhatTheReportsShow.
var EventKinds = []EventKind{
	{journal.System, KindRunStart, RunStart{}, "the summary at the top of the reports is the run's meta, which run-start began"},
	{journal.System, KindRunEnd, RunEnd{}, ""},
	{journal.System, KindNotice, nil, ""},
	{journal.System, KindNotice, QuarantineNote{}, ""},
	{journal.System, KindError, nil, ""},
	{journal.System, KindWorkspace, WorkspaceNote{}, ""},
	{journal.System, KindSandbox, SandboxNote{}, ""},
	{journal.System, KindSandboxOff, SandboxNote{}, ""},
	{journal.System, KindNoPerCommandApproval, nil, ""},
	{journal.System, KindCoderStart, CoderStartNote{}, ""},
	{journal.System, KindCoderEnded, nil, ""},
	{journal.System, KindCoderDone, nil, ""},
	{journal.System, KindCoderExit, CoderExit{}, ""},
	{journal.System, KindCoderFailed, CoderFailedNote{}, ""},
	{journal.System, KindSteerFailed, nil, ""},
	{journal.System, KindRecovery, RecoveryNote{}, ""},
	{journal.System, KindInPlaceChanged, InPlaceChanged{}, ""},
	{journal.System, KindCheckpoint, CheckpointTaken{}, ""},
	{journal.System, KindUndone, UndoDone{}, ""},
	{journal.System, KindOutputCut, OutputCutNote{}, ""},
	{journal.System, KindOutputCut, OutputDroppedNote{}, ""},

	{journal.System, KindVerifyPlan, []Check{}, ""},
	{journal.Tool, KindVerifyStart, Check{}, ""},
	{journal.Tool, KindVerify, CheckResult{}, ""},
	{journal.System, KindVerifyProgress, CheckProgress{}, ""},
	{journal.System, KindVerifyResult, VerifyResultNote{}, ""},

	{journal.System, KindPatch, PatchNote{}, ""},
	{journal.System, KindPatchLeftOut, PatchLeftOut{}, ""},
	{journal.System, KindCoderCommits, CoderCommitsNote{}, ""},
	{journal.System, KindLanded, Landing{}, ""},
	{journal.System, KindReview, ReviewNote{}, ""},
	{journal.System, KindReviewApproved, nil, ""},
	{journal.System, KindReviewApproved, PartApprovedNote{}, ""},
	{journal.System, KindReviewRejected, ReviewRejectedNote{}, ""},
	{journal.System, KindApplyUndone, nil, ""},

	{journal.Supervisor, KindAwaitModel, nil, ""},
	{journal.Adversary, KindAwaitModel, nil, "a wait for the model, not a step of the run's course"},
	{journal.Supervisor, KindGate, supervisor.ReviewResult{}, ""},
	{journal.Adversary, KindGate, supervisor.ReviewResult{}, ""},
	{journal.Supervisor, KindGateFailed, GateFailure{}, ""},
	{journal.Adversary, KindGateFailed, GateFailure{}, ""},
	{journal.System, KindGateFailed, GateFailure{}, ""},
	{journal.Supervisor, KindRelayFailed, GateFailure{}, ""},
	{journal.Supervisor, KindStuck, StuckNote{}, ""},
	{journal.Supervisor, KindRestart, RestartNote{}, ""},
	{journal.System, KindRestart, RestartNote{}, ""},
	{journal.Adversary, KindProbe, supervisor.Probe{}, ""},
	{journal.Adversary, KindFinding, CheckResult{}, ""},
	{journal.Adversary, KindClear, nil, ""},

	{journal.Coder, KindSteer, nil, "the message as the coder got it: the reports leave the coder's lane out (a supervisor's steering is on its own lane)"},
	{journal.Supervisor, KindSteer, SteerNote{}, ""},
	{journal.Supervisor, KindPerson, Said{}, ""},
	{journal.Supervisor, KindStanding, Said{}, ""},
	{journal.Supervisor, KindToPerson, Said{}, ""},
	{journal.Supervisor, KindToCoder, Said{}, ""},

	{journal.Tool, KindNetDenied, NetDeniedNote{}, ""},
	{journal.Tool, KindExecDenied, ExecDeniedNote{}, ""},
	{journal.Approval, KindQueued, QueuedNote{}, "DECISIONS.md tells each request and its decision; where it waited is in the journal"},
}
