package runner

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/supervisor"
)

// DefaultMaxRestarts is the --max-restarts default: how many times a
// returned "done" may go back to a fresh coder before the run stops with a
// stuck report.
const DefaultMaxRestarts = 5

// gateStage is the completion gate of a supervised run: when the coder says
// it is done, its work is verified on a clean copy and reviewed by the
// supervisor model (and probed by the adversarial tester); work it returns,
// or a coder that keeps ignoring steering, goes to a fresh coder with a
// written handoff (HANDOFF.md), up to MaxRestarts, then the run is stuck
// (STUCK.md). A gate that cannot answer holds the run for a person
// (gates.go).
//
// It owns the steering count, the restarts, the gate failures and the
// handoff. It does not start or stop coders (the run does, on what it
// returns), land anything (it only says whether the run is held or has
// given up), or decide the coder's requests (that is the broker's).
type gateStage struct {
	sup    *supervisor.Supervisor // nil: no model, nothing to gate
	runID  string
	dir    string // the run directory: gate.diff, HANDOFF.md, STUCK.md
	task   string
	opts   SupervisionOptions
	checks []Check
	diff   func(context.Context) (Change, error) // the workspace's change now
	land   *LandingStage                         // verification on a clean copy
	tell   func(text string) error               // to the coder running now
	emit   func(lane journal.Lane, kind journal.Kind, text string, data any)
	report func(name, body string) // writes one of the run's reports

	mu sync.Mutex
	// restarting is raised when the coder stops absorbing correction; the
	// steering it ignored is the evidence for the handoff.
	restarting *latch
	steered    []string

	// failures are the model gates that could not answer: the run does
	// not land without a person (gates.go).
	failures []GateFailure
	gaveUp   error // stuck: do not land
}

// review runs when the coder says it is done and a supervisor model
// is configured: the work is verified on a clean copy, then reviewed in a
// fresh context against the task and that validation ledger. It returns the
// next coder's task (the original plus a written handoff) when the work is
// returned, or "" when the run should go on to finish. When the restarts
// are used up it records a stuck report and the run ends without landing.
func (r *gateStage) review(ctx context.Context, restarts int) (string, error) {
	var change Change
	err := sayWhile(r.emit, stepPatch, func() (err error) { change, err = r.diff(ctx); return err })
	if err != nil {
		return "", err
	}
	gatePatch := filepath.Join(r.dir, "gate.diff")
	if err := writeFileIn(r.dir, "gate.diff", change.Patch, 0o600); err != nil {
		return "", err
	}
	var checks []CheckResult
	if !change.Empty() {
		checks, _ = r.land.Verify(ctx, gatePatch, r.checks)
	}
	r.emit(journal.Supervisor, KindAwaitModel, "completion review: waiting for the supervisor model", nil)
	res, err := r.sup.Review(ctx, supervisor.ReviewInput{
		Diffstat: strings.Join(change.Files, "\n"),
		Patch:    change.Patch,
		Ledger:   reviewLedger(checks),
	})
	if err != nil {
		// A review that cannot answer has not found the work done. The coder
		// is not to blame, so it is not sent back; the run goes on to
		// verification and is held for a person (it never lands unattended).
		r.failed(journal.Supervisor, gateReview, err)
		return "", nil
	}
	if res.Accepted() {
		r.emit(journal.Supervisor, KindGate, "completion review accepted the work: "+res.Reason, res)
		findings, failure := r.adversary(ctx, change, gatePatch)
		if len(findings) == 0 {
			if failure != nil {
				r.failed(journal.Adversary, gateAdversary, failure)
			}
			return "", nil
		}
		res = supervisor.ReviewResult{Verdict: "return", Reason: "the adversarial tester's probes failed on a clean copy", Missing: findings}
	}
	handoff := renderHandoff(r.task, r.sup.Standing(), change.Files, checks, res, restarts+1)
	r.report("HANDOFF.md", handoff)
	limit := max(r.opts.MaxRestarts, 0)
	if restarts >= limit {
		stuck := fmt.Sprintf("# Stuck — run %s\n\nThe coder's work was returned %d times and Sentinel stopped instead of spending more. The last handoff follows.\n\n%s", r.runID, restarts+1, handoff)
		r.report("STUCK.md", stuck)
		r.gaveUp = fmt.Errorf("stuck: the completion review returned the work %d times (last: %s); see STUCK.md", restarts+1, res.Reason)
		r.emit(journal.Supervisor, KindStuck, r.gaveUp.Error(), StuckNote{Restarts: restarts})
		return "", r.gaveUp
	}
	r.emit(journal.Supervisor, KindGate, fmt.Sprintf("completion review returned the work (restart %d of %d): %s", restarts+1, limit, res.Reason), res)
	r.emit(journal.System, KindRestart, "starting a fresh coder with HANDOFF.md", RestartNote{Restart: restarts + 1})
	return r.task + "\n\n" + handoff, nil
}

// adversary runs the adversarial tester AdversaryRuns times: it proposes
// probes knowing only the task and the changed files; Sentinel runs them on
// a disposable copy in the sandbox with the network off. It returns what
// failed, and why the tester could not do its job when it could not (no
// usable answer, or probes that could not be run): then nobody tried to
// break the change, and the caller must not call it tested.
func (r *gateStage) adversary(ctx context.Context, change Change, patchPath string) (findings []string, failure error) {
	for i := 0; i < r.opts.AdversaryRuns; i++ {
		r.emit(journal.Adversary, KindAwaitModel, "adversarial tester: waiting for the model's probes", nil)
		probes, err := r.sup.Adversary(ctx, supervisor.AdversaryInput{Diffstat: strings.Join(change.Files, "\n")})
		if err != nil {
			r.emit(journal.Adversary, KindError, "the adversarial tester could not answer: "+err.Error(), nil)
			if failure == nil {
				failure = fmt.Errorf("the model gave no usable probes: %w", err)
			}
			continue
		}
		checks := make([]Check, len(probes))
		for j, p := range probes {
			checks[j] = Check{Command: p.Command, Source: "adversary"}
			r.emit(journal.Adversary, KindProbe, fmt.Sprintf("probe: %s (%s)", p.Command, p.Expect), p)
		}
		results, verr := r.land.Verify(ctx, patchPath, checks)
		if len(results) < len(probes) {
			// The clean copy or its sandbox could not be made: no probe ran.
			if verr == nil {
				verr = fmt.Errorf("%d of %d probes ran", len(results), len(probes))
			}
			r.emit(journal.Adversary, KindError, "the adversarial tester's probes could not run: "+verr.Error(), nil)
			if failure == nil {
				failure = fmt.Errorf("its probes could not run: %w", verr)
			}
			continue
		}
		for j, res := range results {
			if res.Passed() {
				continue
			}
			f := fmt.Sprintf("probe `%s` failed (exit %d): %s", res.Command, res.ExitCode, probes[j].Expect)
			if tail := strings.TrimSpace(res.Tail); tail != "" {
				f += "; output: " + oneLine(tail)
			}
			findings = append(findings, f)
			r.emit(journal.Adversary, KindFinding, f, res)
		}
	}
	if r.opts.AdversaryRuns > 0 && len(findings) == 0 && failure == nil {
		r.emit(journal.Adversary, KindClear, "the adversarial tester's probes all passed", nil)
	}
	return findings, failure
}

// validationLedger lists every check with its exit status.
func validationLedger(checks []CheckResult) string {
	if len(checks) == 0 {
		return "(no checks configured or detected)"
	}
	var b strings.Builder
	for _, c := range checks {
		fmt.Fprintf(&b, "- %s → exit %d (%s)\n", textsafe.Line(c.Command), c.ExitCode, time.Duration(c.DurationMS)*time.Millisecond)
	}
	return b.String()
}

// maxLedgerTail bounds each check's output tail in the review's ledger.
const maxLedgerTail = 1500

// reviewLedger is the validation ledger for the completion review: each
// check with its exit status and the end of its output (the project's
// tests print what the coder wrote: hidden characters are spelled out).
func reviewLedger(checks []CheckResult) string {
	if len(checks) == 0 {
		return ""
	}
	var b strings.Builder
	for _, c := range checks {
		fmt.Fprintf(&b, "- %s → exit %d (%s)\n", textsafe.Line(c.Command), c.ExitCode, time.Duration(c.DurationMS)*time.Millisecond)
		if c.Error != "" {
			fmt.Fprintf(&b, "  error: %s\n", textsafe.Line(c.Error))
		}
		tail := strings.TrimSpace(c.Tail)
		if len(tail) > maxLedgerTail {
			i := len(tail) - maxLedgerTail
			for i < len(tail) && !utf8.RuneStart(tail[i]) {
				i++
			}
			tail = "…" + tail[i:]
		}
		if tail != "" {
			for _, line := range strings.Split(textsafe.Block(tail), "\n") {
				b.WriteString("    | " + line + "\n")
			}
		}
	}
	return b.String()
}

// renderHandoff is HANDOFF.md: what the next coder needs to pick up.
func renderHandoff(task string, standing []string, files []string, checks []CheckResult, res supervisor.ReviewResult, attempt int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Handoff (attempt %d)\n\n## Objective\n\n%s\n\n", attempt+1, textsafe.Block(strings.TrimSpace(task)))
	if len(standing) > 0 {
		b.WriteString("## Standing decisions from the person\n\n")
		for _, d := range standing {
			fmt.Fprintf(&b, "- %s\n", textsafe.Line(d))
		}
		b.WriteString("\n")
	}
	b.WriteString("## What was done\n\n")
	if len(files) == 0 {
		b.WriteString("No files changed yet.\n")
	}
	for _, f := range files {
		fmt.Fprintf(&b, "- `%s`\n", cell(textsafe.Line(f)))
	}
	fmt.Fprintf(&b, "\n## What went wrong\n\nThe completion review returned the work: %s\n", textsafe.Line(res.Reason))
	for _, m := range res.Missing {
		fmt.Fprintf(&b, "- missing: %s\n", textsafe.Line(m))
	}
	b.WriteString("\n## Evidence\n\n" + validationLedger(checks))
	for _, c := range checks {
		if !c.Passed() && c.Tail != "" {
			fmt.Fprintf(&b, "\nOutput of `%s` (tail):\n\n```\n%s\n```\n", cell(textsafe.Line(c.Command)), strings.ReplaceAll(textsafe.Block(c.Tail), "```", "'''"))
		}
	}
	b.WriteString("\n## Next step\n\nContinue in the same workspace (your earlier changes are there): fix what is missing above, run the checks, then say you are done.\n")
	return b.String()
}

// steerLimit is how many steering messages one coder gets before Sentinel
// decides it has stopped absorbing correction and starts a fresh one.
const steerLimit = 3

// steer sends the supervisor's steering to the coder and
// counts it; past steerLimit the coder is ended and replaced.
func (r *gateStage) steer(text string) error {
	err := r.tell(text)
	r.mu.Lock()
	r.steered = append(r.steered, text)
	if len(r.steered) >= steerLimit {
		r.restarting.raise()
	}
	r.mu.Unlock()
	return err
}

// isFreshCoder says ev starts a new coder generation: every fresh coder,
// after a gate's restart or after drifting past steerLimit, follows the
// system lane's restart event. Steering findings are per generation.
func isFreshCoder(ev journal.Event) bool { return ev.Is(journal.System, KindRestart) }

func (r *gateStage) restartCh() <-chan struct{} { return r.restarting.wait() }

// takeRestart returns the ignored steering when a restart was asked for,
// and arms the next coder's own count.
func (r *gateStage) takeRestart() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.restarting.take() {
		return nil
	}
	evidence := r.steered
	r.steered = nil
	return evidence
}

// afterDrift writes the handoff for a coder that ignored steering
// and returns the fresh coder's task, or an error once restarts run out.
func (r *gateStage) afterDrift(restarts int, evidence []string) (string, error) {
	ctx := context.Background()
	change, err := r.diff(ctx)
	if err != nil {
		return "", err
	}
	res := supervisor.ReviewResult{Verdict: "return",
		Reason:  fmt.Sprintf("the coder was steered %d times and kept drifting", len(evidence)),
		Missing: evidence}
	handoff := renderHandoff(r.task, r.sup.Standing(), change.Files, nil, res, restarts+1)
	r.report("HANDOFF.md", handoff)
	limit := max(r.opts.MaxRestarts, 0)
	if restarts >= limit {
		r.report("STUCK.md", fmt.Sprintf("# Stuck — run %s\n\nThe coder was restarted %d times and kept drifting; Sentinel stopped instead of spending more. The last handoff follows.\n\n%s", r.runID, restarts, handoff))
		r.gaveUp = fmt.Errorf("stuck: the coder kept ignoring steering after %d restarts; see STUCK.md", restarts)
		r.emit(journal.Supervisor, KindStuck, r.gaveUp.Error(), nil)
		return "", r.gaveUp
	}
	r.emit(journal.Supervisor, KindRestart, fmt.Sprintf("restarting the coder (%d of %d): %s", restarts+1, limit, res.Reason), RestartNote{Evidence: evidence})
	r.emit(journal.System, KindRestart, "starting a fresh coder with HANDOFF.md", RestartNote{Restart: restarts + 1})
	return r.task + "\n\n" + handoff, nil
}
