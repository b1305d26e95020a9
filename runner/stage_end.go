package runner

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// endStage takes the coder's end to the run's outcome: the patch, then the
// checks that decide whether the work may go on at all (the completion
// gate's verdict, a bypassed gate, the journal's health, the coder's own
// failure), then the landing stage's verification, review and landing; in
// place, the record of what changed instead (stage_inplace.go). It returns
// the Result; closing what the run opened is Run.finish's.
type endStage struct {
	*runCore
	guard   *containment
	land    *LandingStage // nil in place
	gate    *gateStage
	reviews chan *ReviewRequest
	// noWork: the coder's workspace holds no change at all (finish keeps
	// no recovery entry for it).
	noWork bool
}

// conclude takes the coder's work from the workspace through verification
// and review to landing, and says how that went.
func (r *endStage) conclude(ctx context.Context, end coderEnd, patchPath string) Result {
	// The patch is computed even after a stop: it is what recovery keeps,
	// and what review lands later. A stop cancels what follows it, and
	// bounds it to stopDiff: a patch not computed by then is computed by
	// review from the recovery copy (recovery_patch.go), so the stop still
	// ends within a second or two.
	diffWait := 5 * time.Minute
	if end.interrupted {
		diffWait = stopDiff
	}
	dctx, dcancel := context.WithTimeout(context.WithoutCancel(ctx), diffWait)
	var change Change
	err := sayWhile(r.emit, stepPatch, func() (err error) {
		if change, err = r.ws.Diff(dctx); err == nil {
			err = writeFileIn(filepath.Dir(patchPath), filepath.Base(patchPath), change.Patch, 0o600)
		}
		return err
	})
	dcancel()
	if err != nil {
		// A full disk fails the journal and the patch's write alike; the
		// journal is the cause the person must hear of.
		if jerr := journalFailure(r.journal); jerr != nil {
			return Result{Status: StatusFailed, Err: jerr}
		}
		if end.interrupted {
			return stoppedResult(r.id, end.stopStage())
		}
		return Result{Status: StatusFailed, Err: fmt.Errorf("compute the patch: %w", err)}
	}
	r.meta.Files = change.Files
	_ = sayWhile(r.emit, stepPatch, func() error { change.Coder = r.coderCommits(ctx, change); return nil })
	// A coder that failed without changing anything (it could not start
	// its work: a dead endpoint, a refused login) leaves nothing to keep.
	r.noWork = change.Empty() && len(change.Left) == 0 && !end.interrupted && (end.failed != nil || end.code != 0)
	r.emit(journal.System, KindPatch, fmt.Sprintf("patch: %d file(s) changed", len(change.Files)),
		PatchNote{Files: change.Files, Path: patchPath, Bytes: len(change.Patch)})
	if len(change.Left) > 0 {
		r.emit(journal.System, KindPatchLeftOut, fmt.Sprintf("left out of the patch: %d path(s) a patch may never carry (.git, .sentinel, nested repositories)", len(change.Left)),
			PatchLeftOut{Paths: change.Left})
	}
	if r.gate.gaveUp != nil {
		return Result{Status: StatusFailed, Err: r.gate.gaveUp, Stuck: true}
	}
	if err := r.guard.bypassFailure(); err != nil {
		return Result{Status: StatusFailed, Err: err} // nothing of a gate passed by lands
	}
	if err := journalFailure(r.journal); err != nil {
		return Result{Status: StatusFailed, Err: err}
	}
	switch {
	case end.interrupted:
		return stoppedResult(r.id, end.stopStage())
	case end.failed != nil: // the agent's own error: it never did the work
		return Result{Status: StatusFailed, Err: end.failed}
	case end.code != 0:
		return Result{Status: StatusFailed, Err: fmt.Errorf("coder %s exited with status %d", r.adapter.Name(), end.code)}
	}
	if !change.Empty() {
		results, err := r.land.Verify(ctx, patchPath, r.opts.Landing.Checks)
		r.meta.Checks = results
		if r.stop.raised() {
			return stoppedResult(r.id, stageVerification)
		}
		if err != nil {
			return Result{Status: StatusFailed, Err: err}
		}
		desk := reviewDesk{person: r.opts.Landing.Review, apply: r.opts.Landing.Apply, held: r.gate.held, reviews: r.reviews, stopped: r.stop.ch}
		var res *Result
		change, r.meta.Checks, res = r.land.review(ctx, change, patchPath, r.opts.Landing.Checks, r.meta.Checks, desk)
		if res != nil && r.stop.raised() {
			return stoppedResult(r.id, stageReview)
		}
		if res != nil {
			return *res
		}
		r.meta.Files = change.Files
	}
	if err := journalFailure(r.journal); err != nil {
		return Result{Status: StatusFailed, Err: err} // nothing lands unrecorded
	}
	if r.stop.raised() {
		return stoppedResult(r.id, stageLanding) // nothing has begun
	}
	msg := r.landingMessages(&change)
	l, err := r.land.Land(ctx, change, r.opts.Landing.Apply, msg, patchPath, "")
	if err != nil && (r.stop.raised() || errors.Is(err, errLandingRolledBack)) {
		return stoppedResult(r.id, stageLanding) // Land rolled back what it had begun
	}
	if err != nil {
		return Result{Status: StatusFailed, Err: fmt.Errorf("land: %w", err)}
	}
	if r.stop.raised() { // the landing finished before the stop reached it
		return Result{Status: StatusLanded, Landing: &l, Err: &Stopped{RunID: r.id, During: stageLanding, Landed: true}}
	}
	return Result{Status: StatusLanded, Landing: &l}
}
