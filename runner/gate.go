package runner

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/supervisor"
)

// DefaultMaxRestarts is how many times a returned "done" may go back to a
// fresh coder before the run stops with a stuck report.
const DefaultMaxRestarts = 5

// completionGate runs when the coder says it is done and a supervisor model
// is configured: the work is verified on a clean copy, then reviewed in a
// fresh context against the task and that validation ledger. It returns the
// next coder's task (the original plus a written handoff) when the work is
// returned, or "" when the run should go on to finish. When the restarts
// are used up it records a stuck report and the run ends without landing.
func (r *Run) completionGate(restarts int) (string, error) {
	ctx := context.Background()
	change, err := r.ws.Diff(ctx)
	if err != nil {
		return "", err
	}
	gatePatch := filepath.Join(r.dir, "gate.diff")
	if err := writeFileIn(r.dir, "gate.diff", change.Patch, 0o600); err != nil {
		return "", err
	}
	var checks []CheckResult
	if !change.Empty() {
		checks, _ = r.verifier().Verify(ctx, gatePatch)
	}
	ledger := validationLedger(checks)
	res, err := r.sup.Review(ctx, supervisor.ReviewInput{
		Summary:  "Validation ledger (checks re-run by Sentinel on a clean copy):\n" + ledger,
		Diffstat: strings.Join(change.Files, "\n"),
	})
	if err != nil {
		// A review that cannot answer has not found the work done. The coder
		// is not to blame, so it is not sent back; the run goes on to
		// verification and is held for a person (it never lands unattended).
		r.gateFailed(journal.Supervisor, gateReview, err)
		return "", nil
	}
	if res.Accepted() {
		r.emit(journal.Supervisor, KindGate, "completion review accepted the work: "+res.Reason, res)
		findings, failure := r.adversary(ctx, change, gatePatch)
		if len(findings) == 0 {
			if failure != nil {
				r.gateFailed(journal.Adversary, gateAdversary, failure)
			}
			return "", nil
		}
		res = supervisor.ReviewResult{Verdict: "return", Reason: "the adversarial tester's probes failed on a clean copy", Missing: findings}
	}
	handoff := renderHandoff(r.opts.Task, r.sup.Standing(), change.Files, checks, res, restarts+1)
	r.writeReport("HANDOFF.md", handoff)
	max := r.opts.MaxRestarts
	if max <= 0 {
		max = DefaultMaxRestarts
	}
	if restarts >= max {
		stuck := fmt.Sprintf("# Stuck — run %s\n\nThe coder's work was returned %d times and Sentinel stopped instead of spending more. The last handoff follows.\n\n%s", r.id, restarts+1, handoff)
		r.writeReport("STUCK.md", stuck)
		r.gateErr = fmt.Errorf("stuck: the completion review returned the work %d times (last: %s); see STUCK.md", restarts+1, res.Reason)
		r.emit(journal.Supervisor, KindStuck, r.gateErr.Error(), map[string]any{"restarts": restarts})
		return "", r.gateErr
	}
	r.emit(journal.Supervisor, KindGate, fmt.Sprintf("completion review returned the work (restart %d of %d): %s", restarts+1, max, res.Reason), res)
	r.emit(journal.System, KindRestart, "starting a fresh coder with HANDOFF.md", map[string]any{"restart": restarts + 1})
	return r.opts.Task + "\n\n" + handoff, nil
}

// adversary runs the adversarial tester AdversaryRuns times: it proposes
// probes knowing only the task and the changed files; Sentinel runs them on
// a disposable copy in the sandbox with the network off. It returns what
// failed, and why the tester could not do its job when it could not (no
// usable answer, or probes that could not be run): then nobody tried to
// break the change, and the caller must not call it tested.
func (r *Run) adversary(ctx context.Context, change Change, patchPath string) (findings []string, failure error) {
	for i := 0; i < r.opts.AdversaryRuns; i++ {
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
		v := r.verifier()
		v.Checks = checks
		results, verr := v.Verify(ctx, patchPath)
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

// steerFromSupervisor sends the supervisor's steering to the coder and
// counts it; past steerLimit the coder is ended and replaced.
func (r *Run) steerFromSupervisor(text string) error {
	err := r.tellCoder(text)
	r.finMu.Lock()
	r.steered = append(r.steered, text)
	over := len(r.steered) >= steerLimit
	if over {
		select {
		case <-r.restarting:
		default:
			close(r.restarting)
		}
	}
	r.finMu.Unlock()
	return err
}

func (r *Run) restartCh() <-chan struct{} {
	r.finMu.Lock()
	defer r.finMu.Unlock()
	return r.restarting
}

// takeRestart returns the ignored steering when a restart was asked for,
// and arms the next coder's own count.
func (r *Run) takeRestart() []string {
	r.finMu.Lock()
	defer r.finMu.Unlock()
	select {
	case <-r.restarting:
	default:
		return nil
	}
	evidence := r.steered
	r.steered = nil
	r.restarting = make(chan struct{})
	return evidence
}

// restartAfterDrift writes the handoff for a coder that ignored steering
// and returns the fresh coder's task, or an error once restarts run out.
func (r *Run) restartAfterDrift(restarts int, evidence []string) (string, error) {
	ctx := context.Background()
	change, err := r.ws.Diff(ctx)
	if err != nil {
		return "", err
	}
	res := supervisor.ReviewResult{Verdict: "return",
		Reason:  fmt.Sprintf("the coder was steered %d times and kept drifting", len(evidence)),
		Missing: evidence}
	handoff := renderHandoff(r.opts.Task, r.sup.Standing(), change.Files, nil, res, restarts+1)
	r.writeReport("HANDOFF.md", handoff)
	max := r.opts.MaxRestarts
	if max <= 0 {
		max = DefaultMaxRestarts
	}
	if restarts >= max {
		r.writeReport("STUCK.md", fmt.Sprintf("# Stuck — run %s\n\nThe coder was restarted %d times and kept drifting; Sentinel stopped instead of spending more. The last handoff follows.\n\n%s", r.id, restarts, handoff))
		r.gateErr = fmt.Errorf("stuck: the coder kept ignoring steering after %d restarts; see STUCK.md", restarts)
		r.emit(journal.Supervisor, KindStuck, r.gateErr.Error(), nil)
		return "", r.gateErr
	}
	r.emit(journal.Supervisor, KindRestart, fmt.Sprintf("restarting the coder (%d of %d): %s", restarts+1, max, res.Reason), map[string]any{"evidence": evidence})
	r.emit(journal.System, KindRestart, "starting a fresh coder with HANDOFF.md", map[string]any{"restart": restarts + 1})
	return r.opts.Task + "\n\n" + handoff, nil
}
