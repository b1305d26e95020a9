package main

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner"
)

// runsHeader names the columns of sentinel runs, in order.
var runsHeader = []string{"RUN", "STATUS", "CODER", "STARTED", "DURATION", "DECISIONS", "TASK"}

// runsTSV is sentinel runs for a pipe: one tab-separated line per run under
// the header, every field whole (the task on one line, tabs folded).
func runsTSV(metas []*runner.Meta, pending map[string]int) string {
	var b strings.Builder
	b.WriteString(strings.Join(runsHeader, "\t") + "\n")
	for _, m := range metas {
		row := []string{m.ID, statusText(m, pending), coderText(m), m.Started.Local().Format("2006-01-02 15:04"),
			duration(m), decisionsText(m.Decisions), strings.Join(strings.Fields(m.Task), " ")}
		for i := range row {
			row[i] = strings.ReplaceAll(textsafe.Line(row[i]), "\t", " ")
		}
		b.WriteString(strings.Join(row, "\t") + "\n")
	}
	return b.String()
}

// runsFit is sentinel runs at a terminal width columns wide: aligned
// columns, the task cut with … to what is left. When even a short task does
// not fit, the least needed columns go first (started, which the run id
// already tells, then decisions, duration, coder); no line is wider than
// width.
func runsFit(metas []*runner.Meta, pending map[string]int, width int) string {
	const gap = 2
	rows := [][]string{runsHeader}
	landedOwn := false
	for _, m := range metas {
		rows = append(rows, []string{textsafe.Line(m.ID), textsafe.Line(shortStatus(m, pending)), textsafe.Line(coderText(m)),
			m.Started.Local().Format("01-02 15:04"), duration(m), shortDecisions(m.Decisions),
			strings.Join(strings.Fields(textsafe.Line(m.Task)), " ")})
		landedOwn = landedOwn || (m.Landing != nil && m.Landing.Branch == "sentinel/"+m.ID)
	}
	const task = 6
	widths := make([]int, len(runsHeader))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], ansi.StringWidth(c))
		}
	}
	keep := []int{0, 1, 2, 3, 4, 5}
	need := func() int {
		n := 0
		for _, i := range keep {
			n += widths[i] + gap
		}
		return n
	}
	minTask := min(widths[task], 20)
	for _, drop := range []int{3, 5, 4, 2} {
		if width-need() >= minTask {
			break
		}
		for k, i := range keep {
			if i == drop {
				keep = append(keep[:k], keep[k+1:]...)
				break
			}
		}
	}
	var b strings.Builder
	for _, r := range rows {
		var line strings.Builder
		for _, i := range keep {
			line.WriteString(r[i] + strings.Repeat(" ", widths[i]-ansi.StringWidth(r[i])+gap))
		}
		line.WriteString(r[task])
		b.WriteString(fitLine(line.String(), width) + "\n")
	}
	if landedOwn {
		b.WriteString(fitLine("landed: the work is on branch sentinel/<RUN> (see: git log --stat sentinel/<RUN>)", width) + "\n")
	}
	return b.String()
}

// fitLine cuts s to width cells with …, and drops trailing spaces.
func fitLine(s string, width int) string {
	if width > 0 && ansi.StringWidth(s) > width {
		s = ansi.Truncate(s, width, "…")
	}
	return strings.TrimRight(s, " ")
}

// shortStatus is the status with a branch only when it is not the run's own
// sentinel/<id> (which the footnote explains).
func shortStatus(m *runner.Meta, pending map[string]int) string {
	s := runState(m, pending)
	if m.Landing != nil && m.Landing.Branch != "" && m.Landing.Branch != "sentinel/"+m.ID {
		s += " → " + m.Landing.Branch
	}
	return s
}

// shortDecisions counts allowed and denied actions, as the TUI header does.
func shortDecisions(d *runner.Decisions) string {
	if d == nil {
		return "-"
	}
	return fmt.Sprintf("✓%d ✗%d", d.Allowed, d.Denied)
}

// coderText is the run's coder, marked when it ran in place (sentinel exec).
func coderText(m *runner.Meta) string {
	if m.InPlace {
		return m.Coder + " (exec)"
	}
	return m.Coder
}
