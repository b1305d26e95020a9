package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/agentutil"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/procgroup"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
	"github.com/sentinelhq/sentinel/sandbox"
	"github.com/sentinelhq/sentinel/supervisor"
	"github.com/sentinelhq/sentinel/supervisor/steer"
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

// Run is one supervised run of a coder. It starts and waits for the coder
// and hands the work from stage to stage (workspace, completion gate,
// landing, reports: see the package doc); what a stage does is in the
// stage's own type, not here.
type Run struct {
	seen    atomic.Pointer[sandbox.Profile] // the enforced profile, for the broker (reach.go)
	shows   string                          // what the sandbox shows and hides, in brief (toolchains, caches, secrets)
	wsKind  string                          // WorkspaceClone or WorkspaceOverlay, chosen before the first line
	opts    Options
	id      string
	dir     string
	info    Info
	adapter Adapter
	journal *journal.Journal
	lock    *runLock
	ws      *Workspace
	land    *LandingStage // verification, review and landing (stage_landing.go)
	broker  *approvals.Broker
	sb      *sandbox.Sandbox
	coderMu sync.Mutex // guards coder, which a restart replaces
	coder   *coderProc
	meta    *Meta
	grants  *hostGrants
	needs   *agentutil.Needs // what a real agent adds to the sandbox profile
	reports *reportStage     // the run's records (stage_reports.go)
	outCap  *outputCap       // bounds the coder's output in the journal (output_cap.go)

	sup  *supervisor.Supervisor // nil: no model configured
	gate *gateStage             // the completion gate and restarts (gate.go)
	// noWork: the coder's workspace holds no change at all (finish keeps
	// no recovery entry for it).
	noWork bool

	reviews chan *ReviewRequest
	// finishing is raised when the person says the coder is done.
	finishing *latch
	pumpDone  chan struct{}
	stopOnce  sync.Once
	stopped   chan struct{}
	done      chan struct{}
	result    Result
	cancel    context.CancelFunc
	reg       Registered                       // the run's registration with the user service; nil: none
	bypassed  atomic.Pointer[approvals.Bypass] // a tool call ran without Sentinel's allow (bypass.go)
	sockOnce  sync.Once                        // socketPath
	sock      string                           // the broker's socket
	sockDir   string                           // its private directory, removed at the end ("" when none)
	// codexChecked: the app-server's schema was checked in the sandbox
	// (checkCodexSchema), once per run.
	codexChecked bool
}

// NewRunID makes a sortable, unique run id.
func NewRunID(now time.Time) string {
	var b [3]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (it panics instead)
	return now.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// Start prepares the workspace, the broker and the sandbox, and starts the
// coder. Errors before the coder starts leave nothing behind but the run's
// journal, which says what failed.
func Start(ctx context.Context, o Options) (*Run, error) {
	if o.Project == nil {
		return nil, errors.New("runner: no project")
	}
	if o.Landing.Apply == "" {
		o.Landing.Apply = ApplyBranch
	}
	if o.Approval.Timeout <= 0 {
		o.Approval.Timeout = 10 * time.Minute
	}
	if o.Landing.VerifyTimeout <= 0 {
		o.Landing.VerifyTimeout = 10 * time.Minute
	}
	var adapter Adapter
	var err error
	if o.InPlace {
		adapter, err = newInPlaceAdapter(o.Coder.Command)
	} else {
		adapter, err = NewAdapter(o.Coder.Name, o.Coder.Scenario, o.Coder.Command)
	}
	if err != nil {
		return nil, err
	}
	if err := adapter.Preflight(); err != nil {
		return nil, err
	}
	if !o.InPlace { // in place the person's own command line is run as they gave it
		if err := preflightModel(ctx, adapter, o.Preflight); err != nil {
			return nil, err
		}
	}
	p := o.Project
	if p.GitDir != "" {
		if err := p.CheckStateUntracked(ctx); err != nil {
			return nil, err
		}
	}
	if err := p.EnsureState(); err != nil {
		return nil, err
	}
	SweepStale(ctx, p)

	now := time.Now()
	r := &Run{opts: o, id: NewRunID(now), adapter: adapter, stopped: make(chan struct{}), done: make(chan struct{}),
		reviews: make(chan *ReviewRequest), pumpDone: make(chan struct{}), finishing: newLatch(), outCap: newOutputCap(o.Coder.MaxOutput)}
	r.dir = p.RunDir(r.id)
	r.reports = &reportStage{id: r.id, dir: r.dir, emit: r.emit}
	if err := os.MkdirAll(r.dir, 0o700); err != nil {
		return nil, fmt.Errorf("create run directory: %w", err)
	}
	if r.lock, err = lockRun(r.dir); err != nil {
		return nil, err
	}
	if r.journal, err = journal.Open(filepath.Join(r.dir, "events.jsonl"), r.id); err != nil {
		r.lock.release()
		return nil, err
	}
	if o.Supervision.Supervisor != nil {
		r.sup = o.Supervision.Supervisor(o.Task, r.journal, r.dir)
	}
	r.meta = &Meta{ID: r.id, Task: o.Task, Coder: adapter.Name(), Status: StatusRunning, Started: now.UTC(), PID: os.Getpid(), Apply: o.Landing.Apply, InPlace: o.InPlace}
	if o.InPlace {
		r.meta.Apply = ""
	} else {
		r.meta.Planned = o.Landing.Checks
	}
	r.info = Info{RunID: r.id, Coder: adapter.Name(), Task: o.Task, FullScreenCoder: adapter.FullScreen(),
		PerCommandApproval: adapter.PerCommandApproval(), Started: now, Supervised: r.sup != nil, Journal: r.journal.Path(), InPlace: o.InPlace}
	if err := writeMeta(r.dir, r.meta); err != nil {
		r.abort(err)
		return nil, err
	}
	// Registered before the coder starts, so the service knows the agent
	// it finds under this process is this run's.
	mode := "run"
	if o.InPlace {
		mode = "exec"
	}
	r.reg = o.register(RunRegistration{ID: r.id, Project: p.Root, Coder: adapter.Name(), PID: os.Getpid(), Started: now, Mode: mode})
	// The first line names what the coder's sandbox will see and hide, in
	// brief; the sandbox line below says it again with the backend.
	r.shows = sandboxView()
	first := fmt.Sprintf("run %s: coder %s, task: %s", r.id, adapter.Name(), oneLine(o.Task))
	if o.InPlace {
		first = inPlaceFirstLine(r.id, adapter, p.Root)
	}
	if o.Sandbox.Mode != sandbox.ModeOff {
		first += " — its sandbox shows " + r.shows
	}
	if !o.InPlace { // in place, the workspace is the project itself
		var whyClone string
		if r.wsKind, whyClone, err = chooseWorkspace(ctx, p, o.Sandbox.Mode, hostWorkspaceIO(adapter)); err != nil {
			r.abort(err)
			return nil, err
		}
		first += "; " + workspaceLabel(r.wsKind, whyClone)
		r.meta.Workspace = r.wsKind
	}
	r.emit(journal.System, KindRunStart, first,
		RunStart{Task: o.Task, Coder: adapter.Name(), Apply: o.Landing.Apply, Project: p.Root, Checks: o.Landing.Checks})
	for _, n := range o.Notices {
		r.emit(journal.System, KindNotice, n, nil)
	}
	if o.InPlace {
		// No verification, review or landing: the work is in place.
	} else if len(o.Landing.Checks) > 0 {
		var cs []string
		for _, c := range o.Landing.Checks {
			cs = append(cs, c.Command+" ("+c.Source+")")
		}
		r.emit(journal.System, KindVerifyPlan, "before landing, on a clean copy with the network off: "+strings.Join(cs, ", "), o.Landing.Checks)
		WarmGoSeed(p.Root, o.Landing.Checks) // built while the coder works, not when verification needs it
	} else {
		r.emit(journal.System, KindVerifyPlan, "no verification checks configured or detected: set [verify] commands in .sentinel/config.toml or pass --verify", nil)
	}

	if err := r.prepare(ctx); err != nil {
		r.emit(journal.System, KindError, err.Error(), nil)
		r.abort(err)
		return nil, err
	}
	return r, nil
}

func (r *Run) prepare(ctx context.Context) error {
	p, o := r.opts.Project, r.opts
	var snap Snapshot
	var ws *Workspace
	var err error
	if o.InPlace {
		snap, ws, err = openInPlace(ctx, p, r.id, r.emit)
	} else {
		snap, ws, err = openWorkspace(ctx, p, r.id, r.dir, r.wsKind, o.Landing.Limits, r.emit)
	}
	r.meta.Base, r.meta.Snapshot = snap.Base, snap.Commit
	if err != nil {
		return err
	}
	r.ws = ws
	r.info.Workspace = ws.Dir
	if o.InPlace {
		ws.checkpoint = takeInPlaceCheckpoint(p, r.id, o.Task, o.Checkpoint, r.emit)
		// No landing stage; a gate with no model only carries steering.
		r.gate = &gateStage{runID: r.id, dir: r.dir, task: o.Task, tell: r.tellCoder, emit: r.emit, report: r.reports.write, restarting: newLatch()}
	} else {
		r.prepareLanding()
	}
	return r.prepareCoder(ctx)
}

// prepareLanding makes the stages after the coder: the completion gate
// and verification, review and landing.
func (r *Run) prepareLanding() {
	p, o := r.opts.Project, r.opts
	r.land = &LandingStage{Project: p, Snapshot: r.ws.Snapshot, RunID: r.id, Dir: r.dir, Emit: r.emit,
		Verifier: Verifier{Project: p, Snapshot: r.ws.Snapshot, RunID: r.id, RunDir: r.dir, Mode: o.Sandbox.Mode, Timeout: o.Landing.VerifyTimeout, DeniedExecutables: o.Sandbox.DeniedExecutables, Emit: r.emit}}
	r.gate = &gateStage{sup: r.sup, runID: r.id, dir: r.dir, task: o.Task, opts: o.Supervision, checks: o.Landing.Checks,
		diff: r.ws.Diff, land: r.land, tell: r.tellCoder, emit: r.emit, report: r.reports.write, restarting: newLatch()}
}

// prepareCoder starts the broker, the sandbox and the coder.
func (r *Run) prepareCoder(ctx context.Context) error {
	o := r.opts
	var err error
	if err := r.startBroker(); err != nil {
		return err
	}
	r.grants = followHostGrants(r.journal)
	if err := r.prepareAgent(); err != nil {
		return err
	}
	profile := r.profile()
	if o.InPlace {
		if profile, err = r.inPlaceProfile(ctx, profile); err != nil {
			return err
		}
	}
	pinPersonPrograms(o.Project.Root, profile)
	r.sb, err = sandbox.Prepare(profile, sandbox.Options{Mode: o.Sandbox.Mode, Asker: r.askHost, OnDeny: r.proxyDenied, OnExecDeny: r.execDenied})
	if err != nil {
		return err
	}
	r.noteSandbox(r.sb)
	r.info.Sandbox = r.sb.Describe()
	r.info.SandboxOff = r.sb.Mode() == sandbox.ModeOff
	r.info.Network = networkLabel(profile)
	if r.info.SandboxOff {
		r.info.Network = "unfiltered (sandbox off)"
	}
	r.meta.Sandbox = r.info.Sandbox
	r.meta.SandboxOff = r.info.SandboxOff
	level := KindSandbox
	if r.info.SandboxOff {
		level = KindSandboxOff
	}
	sbLine := "sandbox: " + r.info.Sandbox + "; network: " + r.info.Network + "; " + r.shows
	if d := r.sb.DeniedSummary(); d != "" {
		sbLine += "; " + d + " ([service] denied_executables)"
	}
	r.emit(journal.System, level, sbLine, map[string]any{"mode": r.sb.Mode(), "describe": r.info.Sandbox})
	if err := writeMeta(r.dir, r.meta); err != nil {
		return err // a run whose state cannot be recorded does not start
	}

	if d, ok := r.adapter.(*demoAdapter); ok && d.scenario != "" {
		// The coder reads its scenario from the run directory, which the
		// sandbox shows it read-only, wherever the person's file lives.
		dst := filepath.Join(r.dir, "scenario.toml")
		if err := copyFile(d.scenario, dst); err != nil {
			return fmt.Errorf("scenario: %w", err)
		}
		d.scenario = dst
	}
	cctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	if !r.adapter.PerCommandApproval() && !o.InPlace { // in place, the first line says so
		r.emit(journal.System, KindNoPerCommandApproval, fmt.Sprintf("coder %s has no hook protocol: per-command approval is not available; the sandbox is the only gate for what it runs (network hosts are still asked about, and review and landing still apply)", r.adapter.Name()), nil)
	}
	if err := r.launchCoder(cctx, o.Task); err != nil {
		return err
	}
	if d, ok := r.adapter.(*demoAdapter); ok {
		go r.scriptedSteering(d)
	}
	r.reports.keepLive(r.journal, *r.meta)
	if r.sup != nil {
		// Steering detection and the supervisor's memory of the run follow
		// the journal; the subscription ends when the journal closes.
		w := &steer.Watcher{Steer: r.gate.steer, Prompts: r.opts.Supervision.Prompts, Journal: r.journal, NewCoder: isFreshCoder}
		r.sup.Follow(r.journal, w.Observe)
	}
	r.regState(string(StatusRunning))
	go r.watch()
	go r.watchJournal()
	return nil
}

// cur is the coder running now.
func (r *Run) cur() *coderProc {
	r.coderMu.Lock()
	defer r.coderMu.Unlock()
	return r.coder
}

// launchCoder starts the coder (again, after a restart) on task.
func (r *Run) launchCoder(ctx context.Context, task string) error {
	prompt := task
	if r.opts.InPlace {
		prompt = "" // the person's own arguments are the whole command line
	}
	argv, err := r.adapter.Argv(prompt)
	if err != nil {
		return err
	}
	cmd, err := r.sb.Command(ctx, r.ws.Dir, argv...)
	if err != nil {
		return err
	}
	cmd.Env = append(cmd.Env, r.adapter.Env()...)
	cmd.Env = append(cmd.Env, approvals.EnvSocket+"="+r.socketPath(), approvals.EnvRun+"="+r.id)
	r.pumpDone = make(chan struct{})
	if err := r.startCoder(cmd, task); err != nil {
		return fmt.Errorf("start coder %s: %w", r.adapter.Name(), err)
	}
	r.emit(journal.System, KindCoderStart, fmt.Sprintf("coder %s started (pid %d)", r.adapter.Name(), cmd.Process.Pid),
		map[string]any{"argv": argv, "pid": cmd.Process.Pid, "fullscreen": r.adapter.FullScreen()})
	return nil
}

// coderEnd is how the coder ended: interrupted by the person, its exit
// status, and the agent's own failure when its turn failed.
type coderEnd struct {
	interrupted bool
	code        int
	failed      *CoderFailed
	// stoppedIn is the stage a stop interrupted when it was not the
	// coder's work (the completion review).
	stoppedIn string
}

// stopStage is the stage an interrupted run was stopped in.
func (e coderEnd) stopStage() string {
	if e.stoppedIn != "" {
		return e.stoppedIn
	}
	return stageCoder
}

// ok says the coder ended by itself, or on the person's word, having done
// its turn: its work goes on (to a completion gate, verification, landing).
func (e coderEnd) ok() bool { return !e.interrupted && e.code == 0 && e.failed == nil }

// waitCoder waits for the coder to end, or for the person to stop the run or
// say the coder is done, and returns how it ended.
func (r *Run) waitCoder() coderEnd {
	var interrupted bool
	c := r.cur()
	select {
	case <-c.done:
		// Anything the coder left running in its process group goes too
		// (after its hooks' clients have had their moment).
		r.settleHooks(c.cmd.Process.Pid)
		_ = procgroup.Kill(c.cmd.Process.Pid) // ESRCH: nothing was left
	case <-r.stopped:
		// A stop ends the whole run within a second or two (stop.go): the
		// coder gets a short grace, not a restart's.
		interrupted = true
		c.stop(stopGrace)
	case <-r.gate.restartCh():
		c.stop(3 * time.Second)
		r.emit(journal.System, KindCoderEnded, "the coder kept drifting after being steered; ending it for a fresh start", nil)
	case <-r.finishing.wait():
		c.stop(3 * time.Second)
		r.emit(journal.System, KindCoderDone, "the person said the coder is done; its work goes on to verification and review", nil)
	}
	// Let the coder's last output reach the journal before its exit does
	// (briefly after a stop: a sandbox's own processes may hold the pty).
	drain := 2 * time.Second
	if interrupted {
		drain = stopDrain
	}
	select {
	case <-r.pumpDone:
	case <-time.After(drain):
	}
	r.endOutput() // what a cap dropped, and the tail
	code := c.code
	var failed *CoderFailed
	if c.failure != nil && !interrupted {
		failed = coderFailed(r.adapter.Name(), c.failure())
	}
	if r.finishing.take() { // and a restarted coder gets its own "done"
		code, failed = 0, nil // ended on the person's word, not by failing
	}
	r.meta.ExitCode = &code
	r.emit(journal.System, KindCoderExit, fmt.Sprintf("coder exited with status %d", code), CoderExit{ExitCode: code})
	if failed != nil {
		r.emit(journal.System, KindCoderFailed, failed.Error(), map[string]any{"coder": failed.Coder, "reason": failed.Reason, "exit_code": code})
	}
	return coderEnd{interrupted: interrupted, code: code, failed: failed}
}

// watch waits for the coder to end and finishes the run. With a supervisor
// model, "done" must first pass its completion review; work it returns
// goes back to a fresh coder with a written handoff, up to MaxRestarts.
func (r *Run) watch() {
	for restarts := 0; ; restarts++ {
		end := r.waitCoder()
		if evidence := r.gate.takeRestart(); evidence != nil && !end.interrupted {
			next, err := r.gate.afterDrift(restarts, evidence)
			if err == nil {
				if err = r.launchCoder(context.Background(), next); err == nil {
					continue
				}
				r.emit(journal.System, KindError, err.Error(), nil)
			}
			r.finish(coderEnd{code: 1})
			return
		}
		// A coder that failed never goes to a completion gate as "done".
		if !end.ok() || r.sup == nil || r.opts.Supervision.NoCompletionGate || r.opts.InPlace {
			r.finish(end)
			return
		}
		// A stop cancels the completion review too (stop.go).
		gctx, cancel := r.stopContext(context.Background())
		next, err := r.gate.review(gctx, restarts)
		cancel()
		if r.isStopped() {
			r.finish(coderEnd{interrupted: true, code: end.code, stoppedIn: stageCompletionReview})
			return
		}
		if err != nil {
			r.finish(end)
			return
		}
		if next == "" {
			r.finish(end)
			return
		}
		if err := r.launchCoder(context.Background(), next); err != nil {
			r.emit(journal.System, KindError, err.Error(), nil)
			r.finish(coderEnd{code: 1})
			return
		}
	}
}

// Stop ends the run: the coder's process group is ended and its work kept
// in recovery. It is safe to call more than once.
func (r *Run) Stop() {
	r.stopOnce.Do(func() { close(r.stopped) })
}

// Finish says the coder is done: it is ended and its work goes on to
// verification, review and landing as if it had exited by itself.
func (r *Run) Finish() { r.finishing.raise() }

// Wait blocks until the run has finished.
func (r *Run) Wait() Result {
	<-r.done
	return r.result
}

// Done is closed when the run has finished.
func (r *Run) Done() <-chan struct{} { return r.done }

// ID is the run id.
func (r *Run) ID() string { return r.id }

// Dir is the run's directory.
func (r *Run) Dir() string { return r.dir }

// SupervisorTotals is what the supervisor model has cost so far (zero
// without one), for the status bar.
func (r *Run) SupervisorTotals() supervisor.Totals { return r.sup.Totals() }

// Info describes the run for views.
func (r *Run) Info() Info { return r.info }

func (r *Run) emit(lane journal.Lane, kind journal.Kind, text string, data any) {
	if r.journal == nil {
		return
	}
	// A failed append fails the journal for good; watchJournal turns that
	// into a fail-closed stop of the run, so the error is not lost here.
	_, _ = r.journal.Append(lane, kind, text, data)
}

// abort cleans up after a failure before the coder started.
func (r *Run) abort(cause error) {
	r.closeBroker()
	// Best-effort cleanup of a run that never started; SweepStale retries.
	if r.sb != nil {
		_ = r.sb.Close()
	}
	if r.ws != nil {
		r.ws.discard(r.opts.Project, r.id)
	}
	r.meta.Status = StatusFailed
	r.meta.Error = cause.Error()
	r.meta.Ended = time.Now().UTC()
	if err := writeMeta(r.dir, r.meta); err != nil {
		r.emit(journal.System, KindError, err.Error(), nil)
	}
	r.emit(journal.System, KindRunEnd, "run failed before the coder started: "+cause.Error(), RunEnd{Status: StatusFailed})
	r.regEnd(StatusFailed)
	if r.journal != nil {
		_ = r.journal.Close() // the run failed already; its error is the one to report
	}
	r.lock.release()
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	if len(s) > 120 {
		s = s[:117] + "…"
	}
	return s
}

func short(sha string) string {
	if len(sha) > 10 {
		return sha[:10]
	}
	return sha
}

func networkLabel(p sandbox.Profile) string {
	switch p.Net {
	case sandbox.NetNone:
		return "none"
	case sandbox.NetHost:
		return "host (unfiltered)"
	}
	return fmt.Sprintf("proxy (%d allowed hosts)", len(p.AllowHosts))
}
