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
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/placelock"
	"github.com/sentinelhq/sentinel/sandbox"
	"github.com/sentinelhq/sentinel/supervisor"
	"github.com/sentinelhq/sentinel/supervisor/steer"
)

// Run is one supervised run of a coder. It starts and waits for the coder
// and hands the work from stage to stage (workspace, completion gate,
// landing, reports: see the package doc); what a stage does is in the
// stage's own type, not here.
type Run struct {
	*runCore
	shows   string // what the sandbox shows and hides, in brief (toolchains, caches, secrets)
	wsKind  string // WorkspaceClone or WorkspaceOverlay, chosen before the first line
	info    Info
	lock    *runLock
	place   *placelock.Lock // an in-place run's place (inplace_lock.go)
	guard   *containment    // the broker and the sandbox (containment.go)
	coder   *coderStage     // the coder's life (stage_coder.go)
	gate    *gateStage      // the completion gate and restarts (gate.go)
	land    *LandingStage   // verification, review and landing (stage_landing.go)
	end     *endStage       // from the coder's end to the outcome (stage_end.go)
	reports *reportStage    // the run's records (stage_reports.go)

	reviews chan *ReviewRequest
	done    chan struct{}
	result  Result
	cancel  context.CancelFunc
	reg     registration // the run's registration with the user service
	// starting says what a slow start does until Start returns.
	starting *startSay
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
	// An in-place run takes its place first, and a second one in the
	// same place refuses at once (inplace_lock.go).
	now := time.Now()
	id := NewRunID(now)
	var place *placelock.Lock
	if o.InPlace {
		if place, err = lockPlace(o.Project, id, now); err != nil {
			return nil, err
		}
	}
	started := false
	defer func() {
		if !started {
			place.Release()
		}
	}()
	// The project's checks, the seed's start and the sweep below take
	// seconds at load, before the run exists: the start says so from here.
	starting := sayStarting(o.Preflight)
	defer starting.end()
	starting.step("checking the project")
	p := o.Project
	if p.GitDir != "" {
		if err := p.CheckStateUntracked(ctx); err != nil {
			return nil, err
		}
	}
	if err := p.EnsureState(); err != nil {
		return nil, err
	}
	if !o.InPlace {
		// The Go build cache seed the verification will want starts once
		// the coder and the project's state are known to be fine (a run
		// refused here leaves no build behind), before the run, its
		// workspace and its sandbox are made: 4-6 s at load 20-40 that
		// the first verification otherwise waited for again.
		WarmGoSeed(p.Root, o.Landing.Checks)
	}
	SweepStale(ctx, p)

	r := newRun(o, id, adapter)
	r.place = place
	r.starting = starting
	r.starting.step("opening the run")
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
	r.reg.to = o.register(RunRegistration{ID: r.id, Project: p.Root, Coder: adapter.Name(), PID: os.Getpid(), Started: now, Mode: mode})
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
		r.starting.step("choosing the workspace")
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
	} else {
		r.emit(journal.System, KindVerifyPlan, "no verification checks configured or detected: set [verify] commands in .sentinel/config.toml or pass --verify", nil)
	}

	if err := r.prepare(ctx); err != nil {
		r.emit(journal.System, KindError, err.Error(), nil)
		r.abort(err)
		return nil, err
	}
	started = true
	return r, nil
}

// newRun is a run's value before anything of it exists on disk: its
// core and its stages, wired to each other.
func newRun(o Options, id string, adapter Adapter) *Run {
	core := &runCore{opts: o, id: id, adapter: adapter, stop: newStopSignal()}
	r := &Run{runCore: core, done: make(chan struct{}), reviews: make(chan *ReviewRequest)}
	r.guard = &containment{runCore: core}
	r.coder = &coderStage{runCore: core, guard: r.guard, finishing: newLatch(), stopped: core.stop.ch, done: r.done,
		outCap: newOutputCap(o.Coder.MaxOutput), pumpDone: make(chan struct{}), outRelay: &relayWatch{}}
	r.end = &endStage{runCore: core, guard: r.guard, reviews: r.reviews}
	return r
}

// prepare opens the workspace, makes the stages after the coder, sets up
// the broker and the sandbox, and starts the coder.
func (r *Run) prepare(ctx context.Context) error {
	p, o := r.opts.Project, r.opts
	var snap Snapshot
	var ws *Workspace
	var err error
	r.starting.step("making the workspace")
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
	tell := r.coder.tellCoder
	if o.InPlace {
		rctx, stopRecord := stoppedBy(o.StopStarting)
		ws.checkpoint = takeInPlaceCheckpoint(rctx, p, r.id, o.Task, o.Checkpoint, r.emit)
		stopRecord()
		if ws.checkpoint.refused() != nil {
			err, ws.checkpoint = ws.checkpoint.refused(), nil
			return err
		}
		// No landing stage; a gate with no model only carries steering.
		r.gate = &gateStage{runID: r.id, dir: r.dir, task: o.Task, tell: tell, emit: r.emit, report: r.reports.write, restarting: newLatch()}
	} else {
		r.land = &LandingStage{Project: p, Snapshot: ws.Snapshot, RunID: r.id, Dir: r.dir, Emit: r.emit,
			Verifier: Verifier{Project: p, Snapshot: ws.Snapshot, RunID: r.id, RunDir: r.dir, Mode: o.Sandbox.Mode, Timeout: o.Landing.VerifyTimeout, DeniedExecutables: o.Sandbox.DeniedExecutables, Emit: r.emit}}
		r.gate = &gateStage{sup: r.sup, runID: r.id, dir: r.dir, task: o.Task, opts: o.Supervision, checks: o.Landing.Checks,
			diff: ws.Diff, land: r.land, tell: tell, emit: r.emit, report: r.reports.write, restarting: newLatch()}
	}
	r.coder.gate, r.end.gate, r.end.land = r.gate, r.gate, r.land

	r.starting.step("starting the sandbox")
	profile, err := r.guard.start(ctx)
	if err != nil {
		return err
	}
	sb := r.guard.sb
	r.info.Sandbox = sb.Describe()
	r.info.SandboxOff = sb.Mode() == sandbox.ModeOff
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
	if d := sb.DeniedSummary(); d != "" {
		sbLine += "; " + d + " ([service] denied_executables)"
	}
	r.emit(journal.System, level, sbLine, SandboxNote{Mode: sb.Mode(), Describe: r.info.Sandbox})
	if err := writeMeta(r.dir, r.meta); err != nil {
		return err // a run whose state cannot be recorded does not start
	}

	if closed(o.StopStarting) { // stopped while the sandbox started: no coder
		return ErrStoppedBeforeCoder
	}
	cctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	r.starting.step("starting the coder")
	if err := r.coder.begin(cctx); err != nil {
		return err
	}
	r.reports.keepLive(r.journal, *r.meta)
	if r.sup != nil {
		// Steering detection and the supervisor's memory of the run follow
		// the journal; the subscription ends when the journal closes.
		w := &steer.Watcher{Steer: r.gate.steer, Prompts: r.opts.Supervision.Prompts, Journal: r.journal, NewCoder: isFreshCoder}
		r.sup.Follow(r.journal, w.Observe)
	}
	r.reg.state(string(StatusRunning))
	go r.watch()
	go r.watchJournal()
	return nil
}

// watch waits for the coder to end and finishes the run. With a supervisor
// model, "done" must first pass its completion review; work it returns
// goes back to a fresh coder with a written handoff, up to MaxRestarts.
func (r *Run) watch() {
	for restarts := 0; ; restarts++ {
		end := r.coder.waitCoder()
		if evidence := r.gate.takeRestart(); evidence != nil && !end.interrupted {
			next, err := r.gate.afterDrift(restarts, evidence)
			if err == nil {
				if err = r.coder.launchCoder(context.Background(), next); err == nil {
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
		gctx, cancel := r.stop.context(context.Background())
		next, err := r.gate.review(gctx, restarts)
		cancel()
		if r.stop.raised() {
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
		if err := r.coder.launchCoder(context.Background(), next); err != nil {
			r.emit(journal.System, KindError, err.Error(), nil)
			r.finish(coderEnd{code: 1})
			return
		}
	}
}

// Stop ends the run: the coder's process group is ended and its work kept
// in recovery. It is safe to call more than once.
func (r *Run) Stop() { r.stop.raise() }

// Finish says the coder is done: it is ended and its work goes on to
// verification, review and landing as if it had exited by itself.
func (r *Run) Finish() { r.coder.finishing.raise() }

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

// abort cleans up after a failure before the coder started.
func (r *Run) abort(cause error) {
	r.guard.closeBroker()
	// Best-effort cleanup of a run that never started; SweepStale retries.
	if r.guard.sb != nil {
		_ = r.guard.sb.Close()
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
	r.reg.end(StatusFailed)
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
