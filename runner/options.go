package runner

import (
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
	"github.com/sentinelhq/sentinel/sandbox"
	"github.com/sentinelhq/sentinel/supervisor"
)

// Options configure one run: what it is for, and one group for each stage
// of it.
type Options struct {
	Project *Project
	Task    string
	// InPlace runs the coder in the project itself (sentinel exec): no
	// copy, no verification, review or landing; Coder.Command is the
	// program and its arguments, a known agent getting its hooks
	// (inplace_agent.go). See stage_inplace.go.
	InPlace bool
	// Notices are shown as system lines right after the run's first, e.g.
	// the project config settings left out because the file is not trusted.
	Notices []string
	// Preflight, when set, is told each check of the coder's preflight that
	// may take a moment, as it starts (before the run or any view exists:
	// cmd prints it), so a start is never silent.
	Preflight   func(line string)
	Coder       CoderOptions
	Sandbox     SandboxOptions
	Approval    ApprovalOptions
	Supervision SupervisionOptions
	Landing     LandingOptions
	// Registrar is told about the run (the user service's registry); nil:
	// the process's default (SetDefaultRegistrar), if any.
	Registrar Registrar
	// Checkpoint bounds the checkpoint an in-place run takes before the
	// coder acts (checkpoint_inplace.go); zero fields are the defaults.
	Checkpoint checkpoint.Limits
	// StopStarting, closed by a stop that comes before the run is shown
	// (cmd's signal watch during Start), ends an in-place start: a first
	// record in progress is abandoned and the coder does not start
	// (ErrStoppedBeforeCoder). Nothing else of the start is cancelled by
	// it (the git watch outlives Start). Nil: no such stop.
	StopStarting <-chan struct{}
}

// CoderOptions say which coder runs and how it is shown.
type CoderOptions struct {
	Name     string   // adapter name
	Scenario string   // demo coder scenario file; empty for the built-in default
	Command  []string // the "command" coder's argv
	Cols     int      // initial coder pty size
	Rows     int
	// MaxOutput bounds the coder's output the journal keeps ([journal]
	// max_output); 0: DefaultMaxOutput.
	MaxOutput int64
}

// SandboxOptions say what the coder's sandbox is and what it adds to the
// default profile (from config and flags).
type SandboxOptions struct {
	Mode       sandbox.Mode
	AllowHosts []string
	Hidden     []string
	Readable   []string
	// DeniedExecutables ([service] denied_executables) are refused by the
	// sandbox at exec time; each refusal is journaled (KindExecDenied).
	DeniedExecutables []string
	// Writable ([exec] writable, absolute) are further places an in-place
	// run may write; a run in a copy ignores them.
	Writable []string
	// SSHAgent ([sandbox] ssh_agent) passes the person's ssh agent
	// ($SSH_AUTH_SOCK) into an in-place run's sandbox; off, the coder
	// cannot sign or authenticate as the person.
	SSHAgent bool
	// PidsMax ([sandbox] pids_max) bounds the sandbox's processes; 0 is
	// sandbox.DefaultPidsMax.
	PidsMax int
}

// ApprovalOptions say who answers the coder's requests.
type ApprovalOptions struct {
	// Person answers prompts; nil means no one is there to ask, and every
	// request that needs a person is denied with "no one to ask".
	Person  *approvals.PersonQueue
	Timeout time.Duration // how long a request may wait for an answer
	// Queue posts what needs a person to the user service's cross-run
	// queue too (approvals/queue), when the service runs: alone when no
	// Person is at the terminal, beside the card when one is (the first
	// answer wins). With no service the run behaves as without it.
	Queue bool
}

// SupervisionOptions configure the supervisor model and the gates it runs.
type SupervisionOptions struct {
	// Supervisor, when set, builds the run's supervisor model once the
	// journal exists (cmd's supervisorFactory). With a Person it advises on
	// each card, or, with AwayGrace > 0, decides what the person leaves
	// unanswered that long; without one it decides the gray zone alone.
	Supervisor func(task string, j *journal.Journal, runDir string) *supervisor.Supervisor
	Prompts    *supervisor.Prompts // steering messages; nil: built-in
	AwayGrace  time.Duration
	// MaxRestarts bounds how often a supervisor's completion review may
	// return the work to a fresh coder: 0 means never (the first return
	// ends the run stuck); the command line's default is DefaultMaxRestarts.
	MaxRestarts int
	// AdversaryRuns is how many adversarial tester turns the completion
	// gate runs after the review accepts (0: none).
	AdversaryRuns int
	// NoCompletionGate skips the completion review (preset everyday):
	// the supervisor only judges and steers at runtime.
	NoCompletionGate bool
}

// LandingOptions say how the coder's change is verified, reviewed and
// landed.
type LandingOptions struct {
	Apply ApplyMode
	// Checks are re-run on a clean copy with the patch applied before
	// anything lands; VerifyTimeout bounds each.
	Checks        []Check
	VerifyTimeout time.Duration
	// Review: a person is there to review the change before it lands.
	Review bool
	// Limits bound the size of the change (limits.go); zero: the defaults.
	Limits Limits
	// Squash lands the change as one commit "sentinel: <task>" even when
	// the coder made commits of its own (land_messages.go).
	Squash bool
}

// Result is how a run ended.
type Result struct {
	Status   Status
	Landing  *Landing
	Recovery string
	Err      error
	// Stuck: the completion gate gave up on the coder (STUCK.md); the run
	// failed, and every view calls it stuck (State).
	Stuck bool
	// InPlace is what an in-place run (sentinel exec) changed, when it
	// could be told, and Code its program's exit status.
	InPlace *InPlaceChanged
	Code    int
}
