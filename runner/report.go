package runner

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner/patch"
	"github.com/sentinelhq/sentinel/supervisor"
)

// decisionRow is one approval decision as the reports show it.
type decisionRow struct {
	Time    time.Time
	Kind    string
	What    string
	Outcome string
	By      string
	Names   []string // the deciding templates' names, when By is "template:…"
	Reason  string
	Message string
}

// decisionRows are the run's decisions with their requests, in the order
// they were decided.
func decisionRows(evs []journal.Event) []decisionRow {
	var rows []decisionRow
	for _, j := range approvals.Effective(evs) {
		if !j.Decided {
			continue
		}
		d := j.Decision
		rows = append(rows, decisionRow{j.DecidedAt, string(j.Request.Kind), oneLine(j.Request.Summary()),
			string(d.Outcome), d.By, d.TemplateNames, d.Reason, d.Message})
	}
	sort.SliceStable(rows, func(a, b int) bool { return rows[a].Time.Before(rows[b].Time) })
	return rows
}

// renderDecisions is DECISIONS.md: every decision so far, newest last.
func renderDecisions(m *Meta, evs []journal.Event) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Decisions — run %s\n\nEvery request the coder made and who decided it. Kept current while the run is live.\n\n", md(m.ID))
	if rules := standingDecisions(evs); len(rules) > 0 {
		b.WriteString("## Standing decisions from the person\n\n")
		for _, r := range rules {
			fmt.Fprintf(&b, "- %s\n", md(r))
		}
		b.WriteString("\n")
	}
	rows := decisionRows(evs)
	if len(rows) == 0 {
		b.WriteString("No requests yet.\n")
		return b.String()
	}
	b.WriteString(strings.Join(whoCounts(CountDecisions(evs)), "\n") + "\n\n")
	b.WriteString("| time | kind | request | decision | by | reason |\n|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | `%s` | %s | %s | %s |\n", r.Time.Local().Format("15:04:05"), md(r.Kind),
			md(r.What), md(r.Outcome), md(whoColumn(r.By, r.Names)), md(r.Reason))
	}
	return b.String()
}

// standingDecisions are the lasting rules the person set through the
// supervisor during the run, oldest first.
func standingDecisions(evs []journal.Event) []string {
	var out []string
	for _, ev := range evs {
		if d, ok := AsStanding(ev); ok && d.Text != "" {
			out = append(out, d.Text)
		}
	}
	return out
}

// renderProgress is PROGRESS.md: where the run stands, for a person who
// walks back in mid-run.
func renderProgress(m *Meta, evs []journal.Event, now time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Progress — run %s\n\n", md(m.ID))
	fmt.Fprintf(&b, "- **Status:** %s\n- **Task:** %s\n- **Coder:** %s\n- **Started:** %s (%s ago)\n",
		md(StateOf(m)), md(m.Task), md(m.Coder), m.Started.Local().Format(time.RFC1123), now.Sub(m.Started).Round(time.Second))
	d := CountDecisions(evs)
	fmt.Fprintf(&b, "- **Approvals:** %d allowed, %d denied\n\n", d.Allowed, d.Denied)
	b.WriteString("## Latest activity\n\n")
	var lines []string
	for _, ev := range evs {
		if l, ok := activityLine(ev); ok {
			lines = append(lines, l)
		}
	}
	if len(lines) > latestActivity {
		lines = lines[len(lines)-latestActivity:]
	}
	if len(lines) == 0 {
		lines = []string{"- nothing yet"}
	}
	b.WriteString(strings.Join(lines, "\n") + "\n")
	return b.String()
}

// latestActivity is how many lines PROGRESS.md shows of the run's latest
// activity.
const latestActivity = 20

// activityLine is ev as a line of PROGRESS.md's latest activity, when it
// is one (the tool, supervisor and system lanes).
func activityLine(ev journal.Event) (string, bool) {
	switch {
	case ev.Lane == journal.Tool, ev.Lane == journal.Supervisor,
		ev.Lane == journal.System && ev.Kind != KindRunStart:
	default:
		return "", false
	}
	text := ev.Text
	if approvals.CoderReported(ev) {
		text = "coder reports: " + text
	}
	return fmt.Sprintf("- %s [%s] %s", ev.Time.Local().Format("15:04:05"), textsafe.Line(string(ev.Lane)), textsafe.Line(oneLine(text))), true
}

// renderFinalReport is FINAL_REPORT.md.
func renderFinalReport(m *Meta, evs []journal.Event, flagged []Flag) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Final report — run %s\n\n", md(m.ID))
	fmt.Fprintf(&b, "| | |\n|---|---|\n| status | **%s** |\n| task | %s |\n| coder | %s |\n| sandbox | %s |\n| started | %s |\n| ended | %s |\n| base | %s |\n",
		md(StateOf(m)), md(m.Task), md(m.Coder), md(m.Sandbox), m.Started.Local().Format(time.RFC1123), m.Ended.Local().Format(time.RFC1123), md(short(m.Base)))
	if m.Error != "" {
		fmt.Fprintf(&b, "| error | %s |\n", md(m.Error))
	}
	b.WriteString("\n## Changed files\n\n")
	if len(m.Files) == 0 {
		b.WriteString("None.\n")
	}
	for _, f := range m.Files {
		fmt.Fprintf(&b, "- `%s`\n", md(f))
	}
	if m.SandboxOff {
		b.WriteString("\n## Verification (clean copy, NOT sandboxed: --sandbox off)\n\n")
	} else {
		b.WriteString("\n## Verification (clean copy, sandboxed, network off)\n\n")
	}
	if len(m.Checks) == 0 {
		b.WriteString("The final verification did not run (every check that ran during the run is listed below).\n")
	} else {
		b.WriteString("| check | source | exit | duration |\n|---|---|---|---|\n")
		for _, c := range m.Checks {
			fmt.Fprintf(&b, "| `%s` | %s | %d | %s |\n", md(c.Command), md(c.Source), c.ExitCode, time.Duration(c.DurationMS)*time.Millisecond)
		}
		if len(m.Checks) > 0 && m.Checks[0].From != "" {
			fmt.Fprintf(&b, "\nNot run again before landing: %s.\n", md(m.Checks[0].From))
		}
		b.WriteString(failedCheckTails(m.Checks))
	}
	b.WriteString(renderCourse(evs))
	b.WriteString(renderToolCalls(evs))
	d := CountDecisions(evs)
	fmt.Fprintf(&b, "\n## Approvals\n\n%d allowed, %d denied.\n\n", d.Allowed, d.Denied)
	if t := supervisor.TotalsFromEvents(evs); t.Turns > 0 {
		fmt.Fprintf(&b, "Supervisor model: %s.\n\n", md(strings.TrimPrefix(t.String(), "supervisor: ")))
	}
	for _, l := range whoCounts(d) {
		b.WriteString(l + "\n")
	}
	var denied []decisionRow
	for _, r := range decisionRows(evs) {
		if r.Outcome != "allow" {
			denied = append(denied, r)
		}
	}
	if len(denied) > 0 {
		b.WriteString("\nDenied:\n\n| kind | request | by | reason |\n|---|---|---|---|\n")
		for _, r := range denied {
			fmt.Fprintf(&b, "| %s | `%s` | %s | %s |\n", md(r.Kind), md(r.What), md(whoColumn(r.By, r.Names)), md(r.Reason))
		}
	}
	b.WriteString("\n## What landed\n\n")
	switch {
	case m.Landing == nil && m.Recovery != "":
		fmt.Fprintf(&b, "Nothing. The work is kept in `%s` (patch and workspace).\n", md(m.Recovery))
	case m.Landing == nil:
		b.WriteString("Nothing.\n")
	case m.Landing.Nothing || len(m.Landing.Files) == 0:
		b.WriteString("Nothing: the coder changed no files.\n")
		if m.Landing.Branch != "" {
			fmt.Fprintf(&b, "Branch `%s` holds only the snapshot of your uncommitted changes.\n", md(m.Landing.Branch))
		}
	case m.Landing.Branch != "":
		fmt.Fprintf(&b, "Branch `%s` (commit %s); your checkout was not touched.\n", md(m.Landing.Branch), md(short(m.Landing.Commit)))
		b.WriteString(renderSnapshot(m))
	case m.Landing.Mode == ApplyWorktree:
		b.WriteString("Applied to your working tree.\n")
	default:
		b.WriteString("Nothing applied (`--apply none`); the patch is `patch.diff` in the run directory.\n")
	}
	b.WriteString("\n## Remaining risks\n\n")
	var risks []string
	for _, f := range flagged {
		risks = append(risks, fmt.Sprintf("- `%s` runs code later: %s (review it before use)", md(f.Path), md(f.Reason)))
	}
	if len(m.Checks) == 0 && len(m.Files) > 0 {
		risks = append(risks, "- no verification check ran: configure `[verify] commands` in .sentinel/config.toml or pass --verify")
	}
	for _, c := range m.Checks {
		if !c.Passed() {
			risks = append(risks, fmt.Sprintf("- check `%s` failed (exit %d)", md(c.Command), c.ExitCode))
		}
	}
	risks = append(risks, gateRisks(evs)...) // every gate that failed (gates.go)
	if _, failed := approvals.ToolCounts(evs); failed > 0 {
		risks = append(risks, fmt.Sprintf("- %d of the coder's own tool calls failed during the run (listed under Tool calls): whatever it said about its work is a claim, not evidence — trust the checks above", failed))
	}
	risks = append(risks, leftOutRisks(evs)...)
	risks = append(risks, steeringRisks(evs)...)
	if m.SandboxOff {
		risks = append(risks, "- the coder ran WITHOUT a sandbox (--sandbox off): it could read and write anything you can")
	}
	if len(risks) == 0 {
		risks = []string{"- none found"}
	}
	b.WriteString(strings.Join(risks, "\n") + "\n")
	return b.String()
}

// leftOutRisks names what the coder made that no patch may carry (.git,
// .sentinel, a nested repository): it did not land, and the person should
// know the coder tried.
func leftOutRisks(evs []journal.Event) []string {
	var out []string
	for _, ev := range evs {
		d, ok := AsPatchLeftOut(ev)
		if !ok {
			continue
		}
		for _, p := range d.Paths {
			out = append(out, fmt.Sprintf("- `%s` was left out of the patch: a patch never carries .git, .sentinel or a nested repository (submodule); it did not land", md(p)))
		}
	}
	return out
}

// Flag is a changed file that runs code later, and why.
type Flag struct{ Path, Reason string }

// FlaggedFiles are the changed files that run code later (SECURITY.md
// layer 4), as the review screen flags them: every changed path on
// policy/runlater.toml and, from the run's patch when it reads, submodules,
// symlinks and new executables too. An unreadable patch loses only those.
func FlaggedFiles(files []string, diff []byte) []Flag {
	var out []Flag
	seen := map[string]bool{}
	if parsed, err := patch.Parse(diff); err == nil {
		for _, f := range parsed {
			if f.Flagged && !seen[f.Path] {
				seen[f.Path] = true
				out = append(out, Flag{f.Path, f.FlagReason})
			}
		}
	}
	for _, f := range files {
		if why := patch.WhyRunsCodeLater(f); why != "" && !seen[f] {
			seen[f] = true
			out = append(out, Flag{f, why})
		}
	}
	return out
}

// md is text Sentinel did not write, for one line of a markdown report (a
// list item, a table cell, a code span): its first line, hidden characters
// spelled out (textsafe), then made safe for markdown.
func md(s string) string { return cell(textsafe.Line(oneLine(s))) }

// cell keeps s inside one table cell or code span.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", "\\|")
	s = strings.ReplaceAll(s, "`", "'")
	return strings.ReplaceAll(s, "\n", " ")
}

// writeAtomic replaces a report file in one rename.
func writeAtomic(path, body string) error {
	// Exclusive, no-follow temp file: a link planted in a run directory is
	// never written through (safefile.go).
	return writeFileIn(filepath.Dir(path), filepath.Base(path), []byte(body), 0o644)
}
