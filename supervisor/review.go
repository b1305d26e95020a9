package supervisor

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// ReviewInput is what the completion review sees besides the task, the
// standing decisions, the steering sent and the run's recent history.
type ReviewInput struct {
	Summary  string // the coder's own final message (a claim, not evidence)
	Diffstat string // files changed (e.g. `git diff --stat`)
	// Patch is the change (git diff against the snapshot); the prompt gets
	// it bounded by ReviewDiff, with what was cut said plainly.
	Patch []byte
	// Ledger is the validation ledger: each check Sentinel re-ran on a
	// clean copy, with its exit status and the tail of its output.
	Ledger string
}

// ReviewResult is the completion review's answer.
type ReviewResult struct {
	Verdict string   `json:"verdict"` // accept | return
	Reason  string   `json:"reason"`
	Missing []string `json:"missing"` // what the coder still has to do (for return)
}

// Accepted says whether the work may go on to verification and landing.
func (r ReviewResult) Accepted() bool { return r.Verdict == "accept" }

// SteerText is the message that returns the work to the coder, on one
// line (a newline typed into an agent's prompt could send half of it).
func (r ReviewResult) SteerText() string {
	s := "Sentinel supervisor reviewed your work and returns it: " + r.Reason
	if len(r.Missing) > 0 {
		s += " Still missing: " + strings.Join(r.Missing, "; ") + "."
	}
	return strings.Join(strings.Fields(s), " ")
}

var reviewSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"verdict": map[string]any{"type": "string", "enum": []string{"accept", "return"}},
		"reason":  map[string]any{"type": "string"},
		"missing": map[string]any{"type": "array", "items": map[string]any{"type": "string"},
			"description": "what is missing or wrong; empty when accepting"},
	},
	"required":             []string{"verdict", "reason", "missing"},
	"additionalProperties": false,
}

// ParseReview reads a completion review's answer strictly.
func ParseReview(text string) (ReviewResult, error) {
	var r ReviewResult
	if err := decodeObject(text, &r, "verdict", "reason", "missing"); err != nil {
		return r, err
	}
	r.Verdict = strings.ToLower(strings.TrimSpace(r.Verdict))
	r.Reason = strings.TrimSpace(r.Reason)
	switch r.Verdict {
	case "accept", "return":
	default:
		return r, fmt.Errorf("the review's verdict is %q, not accept or return", r.Verdict)
	}
	if r.Reason == "" {
		return r, errors.New("the review gives no reason")
	}
	if r.Verdict == "return" && len(r.Missing) == 0 {
		r.Missing = []string{r.Reason}
	}
	return r, nil
}

type reviewFacts struct {
	Task, Summary, Diffstat, Diff, Ledger, Steering, Recent, Validations, Decisions string
}

// Review is the completion review: when the coder says it is done, the
// model judges the work against the task. It fails closed: on any error the
// result is not accepted (Verdict "return") and the error says why, so the
// caller can fall back to the person's review.
func (s *Supervisor) Review(ctx context.Context, in ReviewInput) (ReviewResult, error) {
	recent, validations := s.history.Snapshot()
	summary := in.Summary
	if summary == "" {
		summary = s.history.Summary()
	}
	facts := reviewFacts{Task: s.task, Summary: clip(summary, 4000), Diffstat: in.Diffstat,
		Diff: ReviewDiff(in.Patch, MaxReviewDiff), Ledger: in.Ledger, Steering: s.history.Steering(),
		Recent: recent, Validations: validations, Decisions: s.decisions()}
	failed := func(err error) (ReviewResult, error) {
		return ReviewResult{Verdict: "return", Reason: "the supervisor could not review the work: " + clip(err.Error(), 200)}, err
	}
	sys, err := s.prompts.Render("review.system", facts)
	if err != nil {
		return failed(err)
	}
	user, err := s.prompts.Render("review.user", facts)
	if err != nil {
		return failed(err)
	}
	var res ReviewResult
	err = s.ask(ctx, KindReview, Turn{Role: string(KindReview), System: sys, User: user, SchemaName: "review", Schema: reviewSchema},
		TurnRecord{}, func(r Reply, rec *TurnRecord) error {
			var perr error
			res, perr = ParseReview(r.Text)
			rec.Decision, rec.Reason = res.Verdict, res.Reason
			if len(res.Missing) > 0 {
				rec.Reason += " — missing: " + strings.Join(res.Missing, "; ")
			}
			return perr
		})
	if err != nil {
		return failed(err)
	}
	return res, nil
}
