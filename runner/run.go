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
	"syscall"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/agentutil"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/sandbox"
	"github.com/sentinelhq/sentinel/supervisor"
	"github.com/sentinelhq/sentinel/supervisor/steer"
)

// Options configure one run.
type Options struct {
	Project    *Project
	Task       string
	Coder      string   // adapter name
	Scenario   string   // demo coder scenario file; empty for the built-in default
	Command    []string // the "command" coder's argv
	Apply      ApplyMode
	Sandbox    sandbox.Mode
	AllowHosts []string
	// Person answers prompts; nil means no one is there to ask, and every
	// request that needs a person is denied with "no one to ask".
	Person  *approvals.PersonQueue
	Timeout time.Duration // how long a request may wait for an answer
	Cols    int           // initial coder pty size
	Rows    int
	// Checks are re-run on a clean copy with the patch applied before
	// anything lands; VerifyTimeout bounds each.
	Checks        []Check
	VerifyTimeout time.Duration
	// Review: a person is there to review the change before it lands.
	Review bool
	// MaxRestarts bounds how often a supervisor's completion review may
	// return the work to a fresh coder (0: DefaultMaxRestarts).
	MaxRestarts int
	// AdversaryRuns is how many adversarial tester turns the completion
	// gate runs after the review accepts (0: none).
	AdversaryRuns int
	// NoCompletionGate skips the completion review (preset everyday):
	// the supervisor only judges and steers at runtime.
	NoCompletionGate bool
	// Sandbox additions from config.
	Hidden   []string
	Readable []string
	// Supervisor, when set, builds the run's supervisor model once the
	// journal exists (cmd's supervisorFactory). With a Person it advises on
	// each card, or, with AwayGrace > 0, decides what the person leaves
	// unanswered that long; without one it decides the gray zone alone.
	Supervisor func(task string, j *journal.Journal, runDir string) *supervisor.Supervisor
	Prompts    *supervisor.Prompts // steering messages; nil: built-in
	AwayGrace  time.Duration
	// Notices are shown as system lines right after the run's first, e.g.
	// the project config settings left out because the file is not trusted.
	Notices []string
	// Limits bound the size of the change (limits.go); zero: the defaults.
	Limits Limits
}

// Result is how a run ended.
type Result struct {
	Status   Status
	Landing  *Landing
	Recovery string
	Err      error
}

// Run is one supervised run of a coder.
type Run struct {
	seen    atomic.Pointer[sandbox.Profile] // the enforced profile, for the broker (reach.go)
	opts    Options
	id      string
	dir     string
	info    Info
	adapter Adapter
	journal *journal.Journal
	lock    *runLock
	ws      *Workspace
	broker  *approvals.Broker
	sb      *sandbox.Sandbox
	coderMu sync.Mutex // guards coder, which a restart replaces
	coder   *coderProc
	meta    *Meta
	grants  *hostGrants
	needs   *agentutil.Needs // what a real agent adds to the sandbox profile
	// startMeta is the summary as it was when the coder started: the live
	// reports read it while finish rewrites meta.
	startMeta   Meta
	reportsDone chan struct{}

	sup     *supervisor.Supervisor // nil: no model configured
	gateErr error                  // the completion gate gave up: do not land

	// gateFailures are the model gates that could not answer: the run
	// does not land without a person (gates.go).
	gateFailures []GateFailure

	reviews chan *ReviewRequest
	// finishing is closed when the person says the coder is done.
	finishing chan struct{}
	finMu     sync.Mutex
	// restarting is closed when the coder stops absorbing correction; the
	// steering it ignored is the evidence for the handoff.
	restarting chan struct{}
	steered    []string
	pumpDone   chan struct{}
	stopOnce   sync.Once
	stopped    chan struct{}
	done       chan struct{}
	result     Result
	// recordsErr is what could not be written of the run's reports.
	recordsMu  sync.Mutex
	recordsErr error
	cancel     context.CancelFunc
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
	if o.Apply == "" {
		o.Apply = ApplyBranch
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Minute
	}
	if o.VerifyTimeout <= 0 {
		o.VerifyTimeout = 10 * time.Minute
	}
	adapter, err := NewAdapter(o.Coder, o.Scenario, o.Command)
	if err != nil {
		return nil, err
	}
	if err := adapter.Preflight(); err != nil {
		return nil, err
	}
	p := o.Project
	if err := p.CheckStateUntracked(ctx); err != nil {
		return nil, err
	}
	if err := p.EnsureState(); err != nil {
		return nil, err
	}
	SweepStale(ctx, p)

	now := time.Now()
	r := &Run{opts: o, id: NewRunID(now), adapter: adapter, stopped: make(chan struct{}), done: make(chan struct{}),
		reviews: make(chan *ReviewRequest), pumpDone: make(chan struct{}), finishing: make(chan struct{}),
		restarting: make(chan struct{})}
	r.dir = p.RunDir(r.id)
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
	if o.Supervisor != nil {
		r.sup = o.Supervisor(o.Task, r.journal, r.dir)
	}
	r.meta = &Meta{ID: r.id, Task: o.Task, Coder: adapter.Name(), Status: StatusRunning, Started: now.UTC(), PID: os.Getpid(), Apply: o.Apply}
	r.info = Info{RunID: r.id, Coder: adapter.Name(), Task: o.Task, FullScreenCoder: adapter.FullScreen(),
		PerCommandApproval: adapter.PerCommandApproval(), Started: now, Supervised: r.sup != nil}
	if err := writeMeta(r.dir, r.meta); err != nil {
		r.abort(err)
		return nil, err
	}
	r.emit(journal.System, KindRunStart, fmt.Sprintf("run %s: coder %s, task: %s", r.id, adapter.Name(), oneLine(o.Task)),
		RunStart{Task: o.Task, Coder: adapter.Name(), Apply: o.Apply, Project: p.Root, Checks: o.Checks})
	for _, n := range o.Notices {
		r.emit(journal.System, KindNotice, n, nil)
	}
	if len(o.Checks) > 0 {
		var cs []string
		for _, c := range o.Checks {
			cs = append(cs, c.Command+" ("+c.Source+")")
		}
		r.emit(journal.System, KindVerifyPlan, "before landing, on a clean copy with the network off: "+strings.Join(cs, ", "), o.Checks)
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
	t0 := time.Now()
	snap, err := TakeSnapshot(ctx, p, r.dir)
	if err != nil {
		return err
	}
	r.meta.Base, r.meta.Snapshot = snap.Base, snap.Commit
	shadow, err := shadowDir(p, r.id) // in the user's state dir, see shadow.go
	if err != nil {
		return err
	}
	r.ws, err = CreateWorkspace(ctx, p, snap, p.WorkDir(r.id), shadow, "sentinel/"+r.id)
	if err != nil {
		return err
	}
	r.ws.Limits = o.Limits
	msg := fmt.Sprintf("workspace ready in %s at %s (snapshot %s", time.Since(t0).Round(time.Millisecond), r.ws.Dir, short(snap.Commit))
	if snap.Dirty {
		msg += ", includes your uncommitted changes"
	}
	r.info.Workspace = r.ws.Dir
	r.emit(journal.System, KindWorkspace, msg+")", map[string]any{"dir": r.ws.Dir, "base": snap.Base, "snapshot": snap.Commit, "dirty": snap.Dirty})

	if err := r.startBroker(); err != nil {
		return err
	}
	r.startHostGrants()
	if err := r.prepareAgent(); err != nil {
		return err
	}
	profile := r.profile()
	r.sb, err = sandbox.Prepare(profile, sandbox.Options{Mode: o.Sandbox, Asker: r.askHost, OnDeny: r.proxyDenied})
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
	r.emit(journal.System, level, "sandbox: "+r.info.Sandbox+"; network: "+r.info.Network+"; "+sandboxView(), map[string]any{"mode": r.sb.Mode(), "describe": r.info.Sandbox})
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
	if !r.adapter.PerCommandApproval() {
		r.emit(journal.System, KindNoPerCommandApproval, fmt.Sprintf("coder %s has no hook protocol: per-command approval is not available; the sandbox is the only gate for what it runs (network hosts are still asked about, and review and landing still apply)", r.adapter.Name()), nil)
	}
	if err := r.launchCoder(cctx, o.Task); err != nil {
		return err
	}
	if d, ok := r.adapter.(*demoAdapter); ok {
		go r.scriptedSteering(d)
	}
	r.startMeta = *r.meta
	r.reportsDone = make(chan struct{})
	go func() {
		defer close(r.reportsDone)
		r.keepReports()
	}()
	if r.sup != nil {
		// Steering detection and the supervisor's memory of the run follow
		// the journal; the subscription ends when the journal closes.
		w := &steer.Watcher{Steer: r.steerFromSupervisor, Prompts: r.opts.Prompts, Journal: r.journal}
		r.sup.Follow(r.journal, w.Observe)
	}
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
	argv, err := r.adapter.Argv(task)
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
		// Anything the coder left running in its process group goes too.
		_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL) // ESRCH: nothing was left
	case <-r.stopped:
		interrupted = true
		c.stop(3 * time.Second)
	case <-r.restartCh():
		c.stop(3 * time.Second)
		r.emit(journal.System, KindCoderEnded, "the coder kept drifting after being steered; ending it for a fresh start", nil)
	case <-r.finishCh():
		c.stop(3 * time.Second)
		r.emit(journal.System, KindCoderDone, "the person said the coder is done; its work goes on to verification and review", nil)
	}
	// Let the coder's last output reach the journal before its exit does.
	select {
	case <-r.pumpDone:
	case <-time.After(2 * time.Second):
	}
	code := c.code
	var failed *CoderFailed
	if c.failure != nil && !interrupted {
		failed = coderFailed(r.adapter.Name(), c.failure())
	}
	select {
	case <-r.finishCh():
		code, failed = 0, nil // ended on the person's word, not by failing
		r.resetFinish()       // a restarted coder gets its own "done"
	default:
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
		if evidence := r.takeRestart(); evidence != nil && !end.interrupted {
			next, err := r.restartAfterDrift(restarts, evidence)
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
		if !end.ok() || r.sup == nil || r.opts.NoCompletionGate {
			r.finish(end)
			return
		}
		next, err := r.completionGate(restarts)
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
func (r *Run) Finish() {
	r.finMu.Lock()
	defer r.finMu.Unlock()
	select {
	case <-r.finishing:
	default:
		close(r.finishing)
	}
}

func (r *Run) finishCh() <-chan struct{} {
	r.finMu.Lock()
	defer r.finMu.Unlock()
	return r.finishing
}

func (r *Run) resetFinish() {
	r.finMu.Lock()
	defer r.finMu.Unlock()
	r.finishing = make(chan struct{})
}

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
	if r.broker != nil {
		r.broker.Close()
	}
	// Best-effort cleanup of a run that never started; SweepStale retries.
	if r.sb != nil {
		_ = r.sb.Close()
	}
	if r.ws != nil {
		_ = os.RemoveAll(r.ws.Dir)
		_ = os.RemoveAll(r.agentStateDir())
		removeShadow(r.opts.Project, r.id)
	}
	r.meta.Status = StatusFailed
	r.meta.Error = cause.Error()
	r.meta.Ended = time.Now().UTC()
	if err := writeMeta(r.dir, r.meta); err != nil {
		r.emit(journal.System, KindError, err.Error(), nil)
	}
	r.emit(journal.System, KindRunEnd, "run failed before the coder started: "+cause.Error(), RunEnd{Status: StatusFailed})
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
