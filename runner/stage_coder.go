package runner

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/procgroup"
)

// coderStage is the coder's life in a run: it starts the coder the way its
// adapter speaks (start_coder.go), pumps its output into the journal under
// the run's cap (output_cap.go), steers it (the person's words, the
// supervisor's relay, a demo scenario's script), and waits for its end,
// which it returns as a coderEnd: how it ended and, when the agent's turn
// failed, its failure as a value (CoderFailed). A restart replaces the
// coder the stage runs; nothing after the coder (the gate, landing,
// reports) is decided here.
type coderStage struct {
	*runCore
	guard *containment // the sandbox it runs in and the broker it asks
	gate  *gateStage   // a drift's restart ends the coder (restartCh)
	// finishing is raised when the person says the coder is done.
	finishing *latch
	stopped   <-chan struct{} // the run's stop (stopSignal)
	done      <-chan struct{} // the run's end: a relay still at work gives up
	outCap    *outputCap      // bounds the coder's output in the journal (output_cap.go)

	mu       sync.Mutex // guards proc, which a restart replaces
	proc     *coderProc
	pumpDone chan struct{} // closed when the coder's output is all journaled
	outRelay *relayWatch   // what that relay has moved (coder_relay.go)
	// codexChecked: the app-server's schema was checked in the sandbox
	// (checkCodexSchema), once per run.
	codexChecked bool
}

// cur is the coder running now.
func (r *coderStage) cur() *coderProc {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.proc
}

// launchCoder starts the coder (again, after a restart) on task.
func (r *coderStage) launchCoder(ctx context.Context, task string) error {
	prompt := task
	if r.opts.InPlace {
		prompt = "" // the person's own arguments are the whole command line
	}
	argv, err := r.adapter.Argv(prompt)
	if err != nil {
		return err
	}
	cmd, err := r.guard.sb.Command(ctx, r.ws.Dir, argv...)
	if err != nil {
		return err
	}
	cmd.Env = append(cmd.Env, r.adapter.Env()...)
	cmd.Env = append(cmd.Env, approvals.EnvSocket+"="+r.guard.socketPath(), approvals.EnvRun+"="+r.id)
	cmd.Env = append(cmd.Env, workspaceEnv(r.ws.Dir)...) // wiring.go: last, so the person's own value does not stand
	r.pumpDone, r.outRelay = make(chan struct{}), &relayWatch{}
	if err := r.startCoder(cmd, task); err != nil {
		return fmt.Errorf("start coder %s: %w", r.adapter.Name(), err)
	}
	r.emit(journal.System, KindCoderStart, fmt.Sprintf("coder %s started (pid %d)", r.adapter.Name(), cmd.Process.Pid),
		CoderStartNote{Argv: argv, PID: cmd.Process.Pid, FullScreen: r.adapter.FullScreen()})
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
func (r *coderStage) waitCoder() coderEnd {
	var interrupted bool
	c := r.cur()
	select {
	case <-c.done:
		// Anything the coder left running in its process group goes too
		// (after its hooks' clients have had their moment).
		r.settleHooks(c.cmd.Process.Pid, hookSettle)
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
	// Let the coder's last output reach the journal before its exit does:
	// briefly after a stop, else while the relay moves it (coder_relay.go).
	if interrupted {
		select {
		case <-r.pumpDone:
		case <-time.After(stopDrain):
		}
	} else {
		r.outRelay.settle(r.pumpDone, relayIdle, relayHang)
	}
	r.endOutput() // what a cap dropped, and the tail
	r.journalAgentDenials(c.started)
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
		r.emit(journal.System, KindCoderFailed, failed.Error(), CoderFailedNote{Coder: failed.Coder, Reason: failed.Reason, ExitCode: code})
	}
	return coderEnd{interrupted: interrupted, code: code, failed: failed}
}

// begin starts the run's first coder on the task, with what comes before
// it: a demo scenario copied where the sandbox shows it, and the line that
// says a coder without hooks has no per-command approval.
func (r *coderStage) begin(ctx context.Context) error {
	if d, ok := r.adapter.(*demoAdapter); ok && d.scenario != "" {
		// The coder reads its scenario from the run directory, which the
		// sandbox shows it read-only, wherever the person's file lives.
		dst := filepath.Join(r.dir, "scenario.toml")
		if err := copyFile(d.scenario, dst); err != nil {
			return fmt.Errorf("scenario: %w", err)
		}
		d.scenario = dst
	}
	if !r.adapter.PerCommandApproval() && !r.opts.InPlace { // in place, the first line says so
		r.emit(journal.System, KindNoPerCommandApproval, fmt.Sprintf("coder %s has no hook protocol: per-command approval is not available; the sandbox is the only gate for what it runs (network hosts are still asked about, and review and landing still apply)", r.adapter.Name()), nil)
	}
	if err := r.launchCoder(ctx, r.opts.Task); err != nil {
		return err
	}
	if d, ok := r.adapter.(*demoAdapter); ok {
		go r.scriptedSteering(d)
	}
	return nil
}
