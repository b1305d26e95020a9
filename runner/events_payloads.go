package runner

import (
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/sandbox"
)

// The payloads of the run's kinds that carry more than their text (the
// rest are in events.go beside their kinds). Each is what the event's data
// decodes to (journal.As); the table of every kind and its payload is
// eventTable (events_table.go). The JSON names are the ones the journal
// has always had.

// SandboxNote is the data of a sandbox or sandbox-off event.
type SandboxNote struct {
	Describe string       `json:"describe"`
	Mode     sandbox.Mode `json:"mode"`
}

// WorkspaceNote is the data of a workspace event: a copy's directory, base
// and snapshot, or, in place, the project itself and the tree recorded.
type WorkspaceNote struct {
	Base     string `json:"base"`
	Dir      string `json:"dir"`
	Dirty    bool   `json:"dirty,omitempty"`
	InPlace  bool   `json:"in_place,omitempty"`
	Kind     string `json:"kind,omitempty"` // WorkspaceClone or WorkspaceOverlay
	Snapshot string `json:"snapshot,omitempty"`
	Tree     string `json:"tree,omitempty"` // in place: the tree the coder started from
}

// CoderFailedNote is the data of a coder-failed event (CoderFailed and the
// coder's exit status).
type CoderFailedNote struct {
	Coder    string `json:"coder"`
	ExitCode int    `json:"exit_code"`
	Reason   string `json:"reason"`
}

// AsCoderFailed decodes a coder-failed event.
func AsCoderFailed(ev journal.Event) (CoderFailedNote, bool) {
	return journal.As[CoderFailedNote](ev, journal.System, KindCoderFailed)
}

// RecoveryNote is the data of a recovery event: where the work was kept.
type RecoveryNote struct {
	Dir string `json:"dir"`
}

// PatchNote is the data of a patch event.
type PatchNote struct {
	Bytes int      `json:"bytes"`
	Files []string `json:"files"`
	From  string   `json:"from,omitempty"` // "recovery": computed after the run, from its recovery copy
	Path  string   `json:"path,omitempty"`
}

// SteerNote is the data of a steer event a demo scenario scripted
// (supervisor lane); a steer on the coder lane carries only its text.
type SteerNote struct {
	Scripted bool   `json:"scripted"`
	Text     string `json:"text"`
}

// ReviewNote is the data of a review event: how many files wait for the
// person's review.
type ReviewNote struct {
	Files int `json:"files"`
}

// ReviewRejectedNote is the data of a review-rejected event.
type ReviewRejectedNote struct {
	Reason string `json:"reason"`
}

// StuckNote is the data of a stuck event after the completion review
// returned the work too often (none after a drift's restarts).
type StuckNote struct {
	Restarts int `json:"restarts"`
}

// RestartNote is the data of a restart event: on the system lane the
// number of the fresh coder, on the supervisor lane the steering evidence
// that ended the last one.
type RestartNote struct {
	Evidence []string `json:"evidence,omitempty"`
	Restart  int      `json:"restart,omitempty"`
}

// QuarantineNote is the data of the notice that lists what an in-place
// coder made under git's names and was moved out of the project.
type QuarantineNote struct {
	Quarantined []string `json:"quarantined"`
}

// VerifyResultNote is the data of a verify-result event.
type VerifyResultNote struct {
	Checks  []CheckResult `json:"checks"`
	Passed  bool          `json:"passed"`
	Reused  string        `json:"reused,omitempty"` // verified already, as this patch file
	Stopped bool          `json:"stopped,omitempty"`
}

// AsVerifyResult decodes a verify-result event.
func AsVerifyResult(ev journal.Event) (VerifyResultNote, bool) {
	return journal.As[VerifyResultNote](ev, journal.System, KindVerifyResult)
}

// NetDeniedNote is the data of a net-denied event.
type NetDeniedNote struct {
	Host        string `json:"host"`
	Port        int    `json:"port"`
	Reason      string `json:"reason"`
	Unreachable bool   `json:"unreachable"`
}

// ExecDeniedNote is the data of an exec-denied event: a program the
// sandbox refused to run ([service] denied_executables).
type ExecDeniedNote struct {
	Copy  bool   `json:"copy"`
	Entry string `json:"entry"`
	File  string `json:"file"`
	Path  string `json:"path"`
}

// QueuedNote is the data of a queued event: the id a request waits under
// in the user service's approval queue.
type QueuedNote struct {
	QueueID   string `json:"queue_id"`
	RequestID string `json:"request_id"`
}

// OutputCutNote is the data of an output-cut event: [journal] max_output
// and the tail kept.
type OutputCutNote struct {
	MaxOutput int64 `json:"max_output"`
	Tail      int64 `json:"tail"`
}

// CoderStartNote is the data of a coder-start event: what was started.
type CoderStartNote struct {
	Argv       []string `json:"argv"`
	FullScreen bool     `json:"fullscreen"`
	PID        int      `json:"pid"`
}

// OutputDroppedNote is the data of the output-cut event at the coder's
// end: how much of its output was dropped, before the tail that follows.
type OutputDroppedNote struct {
	DroppedBytes int64 `json:"dropped_bytes"`
	DroppedLines int64 `json:"dropped_lines"`
	TailBytes    int   `json:"tail_bytes"`
}

// PartApprovedNote is the data of a review-approved event for a part of
// the change: the files accepted and those left out.
type PartApprovedNote struct {
	Files    []string `json:"files"`
	Rejected []string `json:"rejected"`
}
