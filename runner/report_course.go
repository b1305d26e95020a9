package runner

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// maxCourseRows bounds each list of the run's course in the final report;
// the journal keeps them all.
const maxCourseRows = 40

// renderCourse is the final report's account of how the run went, read from
// the journal so that a run that never reached its final verification (a
// stuck one, a failed one) still shows it: every check Sentinel ran, on
// every attempt; every gate's verdict with its reason, the adversary's
// probes and findings; every restart and why; every file or change the
// person rejected in review.
func renderCourse(evs []journal.Event) string {
	var checks, gates, rejected []string
	for _, ev := range evs {
		at := ev.Time.Local().Format("15:04:05")
		switch {
		case ev.Is(journal.Tool, KindVerify):
			var c CheckResult
			if json.Unmarshal(ev.Data, &c) != nil || c.Command == "" {
				continue
			}
			checks = append(checks, fmt.Sprintf("| %s | `%s` | %d | %s |", at, md(c.Command), c.ExitCode, time.Duration(c.DurationMS)*time.Millisecond))
		case ev.Lane == journal.Supervisor && (ev.Kind == KindGate || ev.Kind == KindRestart || ev.Kind == KindStuck || ev.Kind == KindGateFailed),
			ev.Lane == journal.Adversary && (ev.Kind == KindProbe || ev.Kind == KindFinding || ev.Kind == KindGate || ev.Kind == KindGateFailed || ev.Kind == KindClear),
			ev.Is(journal.System, KindGateFailed):
			gates = append(gates, fmt.Sprintf("- %s [%s] %s", at, md(string(ev.Lane)), md(ev.Text)))
		case ev.Is(journal.System, KindReviewRejected):
			rejected = append(rejected, fmt.Sprintf("- %s %s", at, md(ev.Text)))
		case ev.Is(journal.System, KindReviewApproved):
			var part struct {
				Rejected []string `json:"rejected"`
			}
			if json.Unmarshal(ev.Data, &part) != nil {
				continue
			}
			for _, f := range part.Rejected {
				rejected = append(rejected, fmt.Sprintf("- %s `%s`: left out of the landing in review", at, md(f)))
			}
		}
	}
	var b strings.Builder
	b.WriteString("\n## Checks Sentinel ran\n\n")
	if len(checks) == 0 {
		b.WriteString("None: no verification ran during this run.\n")
	} else {
		fmt.Fprintf(&b, "Every check on a clean copy, on every attempt (%d):\n\n| at | check | exit | duration |\n|---|---|---|---|\n", len(checks))
		b.WriteString(strings.Join(bounded(checks), "\n") + "\n")
	}
	if len(gates) > 0 {
		b.WriteString("\n## Gates and restarts\n\n")
		b.WriteString(strings.Join(bounded(gates), "\n") + "\n")
	}
	if len(rejected) > 0 {
		b.WriteString("\n## Rejected in review\n\n")
		b.WriteString(strings.Join(bounded(rejected), "\n") + "\n")
	}
	return b.String()
}

// bounded keeps the first and last rows of a long list and says how many
// were left out between them.
func bounded(rows []string) []string {
	if len(rows) <= maxCourseRows {
		return rows
	}
	half := maxCourseRows / 2
	out := append([]string(nil), rows[:half]...)
	out = append(out, fmt.Sprintf("- … %d more (see events.jsonl)", len(rows)-2*half))
	return append(out, rows[len(rows)-half:]...)
}
