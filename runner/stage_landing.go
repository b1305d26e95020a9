package runner

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner/patch"
)

// LandingStage takes a change the coder made from verification, through
// the person's review, to the real project. A live run lands through it
// (Run.conclude) and so does `sentinel review` (Finished), so a change is
// reviewed, re-verified and landed the same way whenever it lands.
//
// It owns the review request, the accepted part of a change (re-verified
// before it lands), verification on a clean copy, and the landing with its
// journal line. It does not decide whether the run's work may go on (the
// coder's exit, the completion gate, the journal's health: that is the
// run's), and it never writes the run's summary (meta.json): it returns
// what changed and the caller records it.
type LandingStage struct {
	Project  *Project
	Snapshot Snapshot // the run's starting point
	RunID    string
	Dir      string // the run directory: patch.diff, accepted.diff, scratch
	// Verifier is how checks run (sandbox, timeout, journal); its Checks
	// are set per call.
	Verifier Verifier
	Emit     func(lane journal.Lane, kind journal.Kind, text string, data any)

	verified verifyMemo // verifications that ran, so none runs twice (verify_once.go)
}

// ReviewRequest asks for a person's review of body, its files parsed and
// flagged files first; the view answers on answer.
func (s *LandingStage) ReviewRequest(body []byte, checks []CheckResult, answer chan<- ReviewAnswer) (*ReviewRequest, error) {
	files, err := patch.Parse(body)
	if err != nil {
		return nil, err
	}
	patch.Sort(files)
	return &ReviewRequest{RunID: s.RunID, Files: files, Patch: body, Checks: checks, Answer: answer}, nil
}

// Rejected journals the person's rejection and returns the reason as the
// journal gives it. data is the rejection's payload reason (a live run
// records what the person typed, `sentinel review` what it printed).
func (s *LandingStage) Rejected(reason, data string) string {
	if reason == "" {
		reason = "no reason given"
	}
	s.Emit(journal.System, KindReviewRejected, "you rejected the change: "+reason, ReviewRejectedNote{Reason: data})
	return reason
}

// Accepted writes the part of the change a person accepted to
// accepted.diff, as a regular file of Sentinel's, and returns its path and
// the change it makes. It must be verified again before it lands.
func (s *LandingStage) Accepted(part []byte) (string, Change, error) {
	if err := writeFileIn(s.Dir, "accepted.diff", part, 0o600); err != nil {
		return "", Change{}, err
	}
	names, err := patchNames(part)
	if err != nil {
		return "", Change{}, fmt.Errorf("read the accepted part: %w", err)
	}
	return filepath.Join(s.Dir, "accepted.diff"), Change{Patch: part, Files: names}, nil
}

// Verify runs checks on a clean copy of the snapshot with the patch at
// patchPath applied, in the sandbox with the network off. A patch this
// stage already verified to the end with the same checks and toolchain is
// not verified again: those results stand, and the journal says where they
// came from (verify_once.go).
func (s *LandingStage) Verify(ctx context.Context, patchPath string, checks []Check) ([]CheckResult, error) {
	v := s.Verifier
	v.Checks = checks
	key, patchHash, keyed := verifyKey(v, patchPath, checks)
	if prev, ok := s.verified.lookup(key); keyed && ok && len(checks) > 0 {
		results := make([]CheckResult, len(prev.results))
		for i, r := range prev.results {
			r.From = reusedFrom(prev)
			results[i] = r
		}
		if s.Emit != nil {
			s.Emit(journal.System, KindVerifyResult, reusedText(prev, patchHash, len(results)),
				VerifyResultNote{Passed: prev.failed == nil, Checks: results, Reused: prev.as})
		}
		return results, prev.failed
	}
	results, err := v.Verify(ctx, patchPath)
	if keyed && ctx.Err() == nil && complete(results, checks) {
		s.verified.remember(key, verifiedRun{results: results, failed: err, as: filepath.Base(patchPath), at: time.Now()})
	}
	return results, err
}

// Land puts ch into the project as mode says (Land) and journals where it
// went, the line starting with said.
func (s *LandingStage) Land(ctx context.Context, ch Change, mode ApplyMode, message, patchPath, said string) (Landing, error) {
	var l Landing
	err := sayWhile(s.Emit, stepLanding, func() (err error) {
		l, err = Land(ctx, s.Project, s.Snapshot, ch, mode, s.RunID, message, patchPath, s.Dir)
		return err
	})
	if err != nil {
		return l, err
	}
	s.Emit(journal.System, KindLanded, said+landingText(l), l)
	return l, nil
}

// without is all but the names in drop, in all's order.
func without(all, drop []string) []string {
	gone := map[string]bool{}
	for _, d := range drop {
		gone[d] = true
	}
	var out []string
	for _, a := range all {
		if !gone[a] {
			out = append(out, a)
		}
	}
	return out
}

// patchNames are the paths a patch touches, in its order.
func patchNames(body []byte) ([]string, error) {
	files, err := patch.Parse(body)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Path)
	}
	return names, nil
}

// runCommitMessage is the landing commit's message for a live run: what
// was asked, who did it, what verified it and how many requests were
// allowed and denied (counted from the run's journal in dir).
func runCommitMessage(task, coder, id, dir string, files []string, checks []CheckResult) string {
	title := oneLine(task)
	if title == "" {
		title = "coder's work"
	}
	verified := "none configured"
	if len(checks) > 0 {
		var parts []string
		for _, c := range checks {
			parts = append(parts, fmt.Sprintf("%s (exit %d)", c.Command, c.ExitCode))
		}
		verified = strings.Join(parts, "; ")
	}
	evs, _ := readRecord(dir)
	d := CountDecisions(evs)
	return fmt.Sprintf("sentinel: %s\n\n%d file(s) changed by coder %s.\n\nSentinel-Run: %s\nSentinel-Coder: %s\nSentinel-Verified: %s\nSentinel-Approvals: %d allowed, %d denied\nCo-authored-by: %s\n",
		title, len(files), coder, id, coder, verified, d.Allowed, d.Denied, coAuthor(coder))
}

// reviewCommitMessage is the landing commit's message for a change landed
// after the fact by `sentinel review`.
func reviewCommitMessage(m *Meta, files []string) string {
	return fmt.Sprintf("sentinel: %s\n\n%d file(s) changed by coder %s, landed after review.\n\nSentinel-Run: %s\nSentinel-Coder: %s\n",
		oneLine(m.Task), len(files), m.Coder, m.ID, m.Coder)
}

// reviewDesk is where a live run meets its person for the review.
type reviewDesk struct {
	person  bool         // someone is there to review (Options.Landing.Review)
	apply   ApplyMode    // where the change goes
	held    func() error // why an unattended run must not land, or nil
	reviews chan<- *ReviewRequest
	stopped <-chan struct{}
}

// review shows a live run's change to the person when one is there and
// returns what they accepted (re-verified with checks when it is only part
// of the change) and the checks that now stand. A nil Result means go on
// and land; otherwise the run ends with it. With no person, a branch lands
// unreviewed (it touches nothing of the person's checkout) but a
// working-tree apply waits for `sentinel review`.
func (s *LandingStage) review(ctx context.Context, change Change, patchPath string, checks []Check, verified []CheckResult, d reviewDesk) (Change, []CheckResult, *Result) {
	if !d.person {
		if err := d.held(); err != nil {
			return change, verified, &Result{Status: StatusPending, Err: err}
		}
		if d.apply == ApplyWorktree {
			return change, verified, &Result{Status: StatusPending, Err: fmt.Errorf("nobody reviewed the change, so it was not applied to your working tree: review it with 'sentinel review %s'", s.RunID)}
		}
		return change, verified, nil
	}
	answer := make(chan ReviewAnswer, 1)
	req, err := s.ReviewRequest(change.Patch, verified, answer)
	if err != nil {
		return change, verified, &Result{Status: StatusFailed, Err: fmt.Errorf("read the patch for review: %w", err)}
	}
	interrupted := &Result{Status: StatusInterrupted, Err: &Stopped{RunID: s.RunID, During: stageReview}}
	s.Emit(journal.System, KindReview, fmt.Sprintf("waiting for your review of %d file(s)", len(req.Files)), ReviewNote{Files: len(req.Files)})
	select {
	case d.reviews <- req:
	case <-d.stopped:
		return change, verified, interrupted
	}
	var a ReviewAnswer
	select {
	case a = <-answer:
	case <-d.stopped:
		return change, verified, interrupted
	}
	if !a.Approve {
		reason := s.Rejected(a.Reason, a.Reason)
		return change, verified, &Result{Status: StatusRejected, Err: fmt.Errorf("the change was rejected in review: %s", reason)}
	}
	if a.Patch == nil {
		s.Emit(journal.System, KindReviewApproved, "you approved the whole change", nil)
		return change, verified, nil
	}
	// A part of the change: it replaces the patch and is verified again.
	accepted, part, err := s.Accepted(a.Patch)
	if err != nil {
		return change, verified, &Result{Status: StatusFailed, Err: err}
	}
	s.Emit(journal.System, KindReviewApproved, fmt.Sprintf("you approved part of the change: %d of %d file(s); verifying that part again", len(part.Files), len(change.Files)),
		PartApprovedNote{Files: part.Files, Rejected: without(change.Files, part.Files)})
	verified, err = s.Verify(ctx, accepted, checks)
	if err != nil {
		return change, verified, &Result{Status: StatusFailed, Err: fmt.Errorf("the accepted part: %w", err)}
	}
	if err := copyFile(accepted, patchPath); err != nil {
		return change, verified, &Result{Status: StatusFailed, Err: err}
	}
	return part, verified, nil
}
