package eval

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/supervisor"
)

// Options configure a Run.
type Options struct {
	Backend     supervisor.Backend
	Prompts     *supervisor.Prompts // nil: the built-in prompts
	Timeout     time.Duration       // per judge turn, as in a run; 0: the supervisor's default
	Concurrency int                 // cases judged at once; < 1 means 1
	// Progress, when set, is called after each case, one call at a time
	// with done counting up.
	Progress func(done, total int)
}

// Result is the judge's answer to one case.
type Result struct {
	Case Case
	// Got is the judge's decision: allow or deny. A failure to answer is a
	// deny, as in a run.
	Got string
	// Failed says the judge could not answer (error, timeout, refusal,
	// unparseable answer); Reason then says why.
	Failed bool
	// Reason is the decision's reason as the coder would read it.
	Reason    string
	Duration  time.Duration
	TokensIn  int64
	TokensOut int64
}

// FalseAllow says the judge allowed what a careful person would deny.
func (r Result) FalseAllow() bool { return r.Case.Label == "deny" && r.Got == "allow" }

// FalseDeny says the judge denied what a careful person would allow.
func (r Result) FalseDeny() bool { return r.Case.Label == "allow" && r.Got != "allow" }

// Run judges every case through the real judge, each with a fresh
// Supervisor holding the case's task, recent history and earlier
// decisions, so the turn is the one a run would send. Results come back in
// corpus order. A cancelled ctx leaves the rest of the cases denied as
// failures.
func Run(ctx context.Context, cases []Case, o Options) ([]Result, error) {
	if o.Backend == nil {
		return nil, fmt.Errorf("no supervisor backend to evaluate")
	}
	if o.Concurrency < 1 {
		o.Concurrency = 1
	}
	scratch, err := os.MkdirTemp("", "sentinel-eval-")
	if err != nil {
		return nil, fmt.Errorf("eval scratch directory: %w", err)
	}
	defer os.RemoveAll(scratch)

	out := make([]Result, len(cases))
	work := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	var firstErr error
	for w := 0; w < o.Concurrency; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				r, err := judgeOne(ctx, cases[i], o, filepath.Join(scratch, fmt.Sprint(i)))
				out[i] = r
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				done++
				if o.Progress != nil {
					o.Progress(done, len(cases))
				}
				mu.Unlock()
			}
		}()
	}
	for i := range cases {
		work <- i
	}
	close(work)
	wg.Wait()
	return out, firstErr
}

func judgeOne(ctx context.Context, c Case, o Options, runDir string) (Result, error) {
	if err := os.MkdirAll(runDir, 0o700); err != nil {
		return Result{}, fmt.Errorf("eval scratch directory: %w", err)
	}
	if len(c.Decisions) > 0 {
		if err := os.WriteFile(filepath.Join(runDir, "DECISIONS.md"), []byte(decisionsMD(c.Decisions)), 0o600); err != nil {
			return Result{}, fmt.Errorf("eval scratch directory: %w", err)
		}
	}
	s := supervisor.NewSupervisor(supervisor.Options{Backend: o.Backend, Prompts: o.Prompts, Timeout: o.Timeout,
		Task: c.Task, RunDir: runDir})
	for _, ev := range history(c) {
		s.Observe(ev)
	}
	req := c.Request
	if req.ID == "" {
		req.ID = c.ID
	}
	p := approvals.NewPrompt(req, policy.Verdict{Decision: policy.Ask, Reason: c.PolicyReason})
	d := s.Decide(ctx, p)
	t := s.Totals()
	r := Result{Case: c, Got: string(d.Outcome), Failed: t.Failed > 0 || t.Turns == 0, Reason: d.Reason,
		Duration: t.Duration, TokensIn: t.InputTokens, TokensOut: t.OutputTokens}
	if r.Got != "allow" {
		r.Got = "deny"
	}
	return r, nil
}

// history is the case's recent steps as the journal events a run's
// supervisor would have observed.
func history(c Case) []journal.Event {
	var evs []journal.Event
	for _, s := range c.Recent {
		ev := journal.Event{Lane: journal.Tool}
		switch {
		case s.Call != "":
			ev.Kind, ev.Text = coderstream.ToolCall, s.Call
		case s.Result != "":
			ev.Kind, ev.Text = coderstream.ToolResult, s.Result
		default:
			ev.Lane, ev.Kind, ev.Text = journal.Approval, approvals.KindDecision, s.Decision
		}
		evs = append(evs, ev)
	}
	return evs
}

// decisionsMD renders rows as the runner writes DECISIONS.md.
func decisionsMD(rows []Row) string {
	var b strings.Builder
	b.WriteString("# Decisions\n\n| time | kind | request | decision | by | reason |\n|---|---|---|---|---|---|\n")
	for i, r := range rows {
		fmt.Fprintf(&b, "| 10:%02d:%02d | %s | `%s` | %s | %s | %s |\n", 2+i/60, i%60, cell(r.Kind), cell(r.Request),
			cell(r.Decision), cell(r.By), cell(r.Reason))
	}
	return b.String()
}

func cell(s string) string {
	return strings.NewReplacer("|", "\\|", "\n", " ").Replace(s)
}
