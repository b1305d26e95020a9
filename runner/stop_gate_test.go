package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/sandbox"
	"github.com/sentinelhq/sentinel/supervisor"
)

// fakeModel answers every turn with reply, or, with reply "", blocks until
// the turn's context ends, telling asked when a turn arrives.
type fakeModel struct {
	reply string
	asked chan string
}

func (f *fakeModel) Name() string { return "fake model" }

func (f *fakeModel) Complete(ctx context.Context, t supervisor.Turn) (supervisor.Reply, error) {
	select {
	case f.asked <- t.Role:
	default:
	}
	if f.reply == "" {
		<-ctx.Done()
		return supervisor.Reply{}, ctx.Err()
	}
	return supervisor.Reply{Text: f.reply}, nil
}

// startSupervised starts a run whose coder changes a.txt, supervised by
// model, with checks.
func startSupervised(t *testing.T, p *Project, model *fakeModel, checks []Check) *Run {
	t.Helper()
	r, err := Start(context.Background(), Options{Project: p, Task: "edit a.txt",
		Coder:   CoderOptions{Name: "command", Command: []string{"sh", "-c", "echo b > a.txt"}},
		Sandbox: SandboxOptions{Mode: sandbox.ModeOff},
		Supervision: SupervisionOptions{AdversaryRuns: 0, Supervisor: func(task string, j *journal.Journal, dir string) *supervisor.Supervisor {
			return supervisor.NewSupervisor(supervisor.Options{Backend: model, Task: task, Journal: j, RunDir: dir})
		}},
		Landing: LandingOptions{Apply: ApplyBranch, Checks: checks}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A stop while the supervisor's completion review is under way names that
// stage, not the coder's work (which had ended).
func TestStopDuringTheCompletionReviewNamesIt(t *testing.T) {
	t.Parallel()

	p := stopRepo(t)
	model := &fakeModel{asked: make(chan string, 8)}
	r := startSupervised(t, p, model, nil)
	for role := range model.asked {
		if role == string(supervisor.KindReview) {
			break
		}
	}
	r.Stop()
	res := waitResult(t, r, "stop during the completion review")
	var stopped *Stopped
	if res.Status != StatusInterrupted || !errors.As(res.Err, &stopped) || stopped.During != stageCompletionReview {
		t.Fatalf("result %s %v, want interrupted during %s", res.Status, res.Err, stageCompletionReview)
	}
}

// A supervised run verifies its patch once: the completion gate's
// verification stands at landing for the same bytes (#33), and the
// journal says so.
func TestSupervisedRunStartsItsChecksOnce(t *testing.T) {
	t.Parallel()

	p := stopRepo(t)
	model := &fakeModel{reply: `{"verdict":"accept","reason":"done","missing":[]}`, asked: make(chan string, 8)}
	r := startSupervised(t, p, model, []Check{{Command: "grep -q b a.txt", Source: "flag"}})
	res := waitResult(t, r, "a supervised run")
	if res.Status != StatusLanded {
		t.Fatalf("the run ended %s: %v", res.Status, res.Err)
	}
	evs, err := journal.ReadFile(filepath.Join(r.Dir(), "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	starts, reused := 0, false
	for _, ev := range evs {
		if ev.Is(journal.Tool, KindVerifyStart) {
			starts++
		}
		if ev.Is(journal.System, KindVerifyResult) && strings.Contains(ev.Text, "not run again") && strings.Contains(ev.Text, "gate.diff") {
			reused = true
		}
	}
	if starts != 1 || !reused {
		t.Fatalf("the checks started %d time(s) (want 1); the landing's result says where it came from: %v", starts, reused)
	}
	report, _ := os.ReadFile(filepath.Join(r.Dir(), "FINAL_REPORT.md"))
	if !strings.Contains(string(report), "Not run again before landing: verified as gate.diff") {
		t.Fatalf("the report does not say where the verification came from:\n%s", report)
	}
}
