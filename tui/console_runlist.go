package tui

import (
	"fmt"

	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// consoleRunRows is how many runs the console's header lists: at most
// maxConsoleRuns, and about a fifth of a short terminal, so that at 60×15
// the selected run's lanes and card keep the screen (#37 point 6).
func (p *consolePage) consoleRunRows() int {
	if p.c.height <= 0 {
		return maxConsoleRuns
	}
	return min(maxConsoleRuns, max(2, p.c.height/5))
}

// fitRuns keeps at most n of runs, in their order: first those that wait
// for the person or are selected, then the latest of the rest.
func fitRuns(runs []queue.RunStatus, n int, sel string) []queue.RunStatus {
	if len(runs) <= n {
		return runs
	}
	keep := make([]bool, len(runs))
	left := n
	for i, r := range runs {
		if left > 0 && (r.Pending > 0 || queue.WaitsForPerson(r.State) || runKeyOf(r) == sel) {
			keep[i] = true
			left--
		}
	}
	for i := len(runs) - 1; i >= 0 && left > 0; i-- {
		if !keep[i] {
			keep[i] = true
			left--
		}
	}
	var out []queue.RunStatus
	for i, r := range runs {
		if keep[i] {
			out = append(out, r)
		}
	}
	return out
}

// consoleRunLine is one run in the console's header. Below 100 columns
// the state comes first and a long run id keeps its end, so the state is
// whole at 60 columns.
func consoleRunLine(r queue.RunStatus, selected bool, w int) string {
	mark := "  "
	if selected {
		mark = "▶ "
	}
	if w >= 100 {
		return fmt.Sprintf("%s%-18s %-22s %-8s %-22s %3d pending", mark, textsafe.Line(lastTwo(r.Project)), textsafe.Line(r.Run),
			textsafe.Line(r.Coder), r.State, r.Pending)
	}
	id := textsafe.Line(r.Run)
	if len(id) > 8 {
		id = "…" + id[len(id)-6:]
	}
	return fmt.Sprintf("%s%-22s %-7s %d pending %s", mark, textsafe.Line(r.State), id, r.Pending, textsafe.Line(lastTwo(r.Project)))
}
