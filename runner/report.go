package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
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
	Reason  string
	Message string
}

// decisionRows are the run's decisions with their requests, in the order
// they were decided.
func decisionRows(evs []journal.Event) []decisionRow {
	js, _ := approvals.ReadJournaled(evs)
	var rows []decisionRow
	for _, j := range js {
		if !j.Decided {
			continue
		}
		d := j.Decision
		rows = append(rows, decisionRow{j.DecidedAt, string(j.Request.Kind), oneLine(j.Request.Summary()),
			string(d.Outcome), d.By, d.Reason, d.Message})
	}
	sort.SliceStable(rows, func(a, b int) bool { return rows[a].Time.Before(rows[b].Time) })
	return rows
}

// renderDecisions is DECISIONS.md: every decision so far, newest last.
func renderDecisions(m *Meta, evs []journal.Event) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Decisions — run %s\n\nEvery request the coder made and who decided it. Kept current while the run is live.\n\n", m.ID)
	if rules := standingDecisions(evs); len(rules) > 0 {
		b.WriteString("## Standing decisions from the person\n\n")
		for _, r := range rules {
			fmt.Fprintf(&b, "- %s\n", oneLine(r))
		}
		b.WriteString("\n")
	}
	rows := decisionRows(evs)
	if len(rows) == 0 {
		b.WriteString("No requests yet.\n")
		return b.String()
	}
	b.WriteString("| time | kind | request | decision | by | reason |\n|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | `%s` | %s | %s | %s |\n", r.Time.Local().Format("15:04:05"), r.Kind,
			cell(r.What), r.Outcome, r.By, cell(r.Reason))
	}
	return b.String()
}

// standingDecisions are the lasting rules the person set through the
// supervisor during the run, oldest first.
func standingDecisions(evs []journal.Event) []string {
	var out []string
	for _, ev := range evs {
		var d struct {
			Text string `json:"text"`
		}
		if ev.Lane == journal.Supervisor && ev.Kind == "standing" && ev.Decode(&d) == nil && d.Text != "" {
			out = append(out, d.Text)
		}
	}
	return out
}

// renderProgress is PROGRESS.md: where the run stands, for a person who
// walks back in mid-run.
func renderProgress(m *Meta, evs []journal.Event, now time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Progress — run %s\n\n", m.ID)
	fmt.Fprintf(&b, "- **Status:** %s\n- **Task:** %s\n- **Coder:** %s\n- **Started:** %s (%s ago)\n",
		m.Status, oneLine(m.Task), m.Coder, m.Started.Local().Format(time.RFC1123), now.Sub(m.Started).Round(time.Second))
	d := CountDecisions(evs)
	fmt.Fprintf(&b, "- **Approvals:** %d allowed, %d denied\n\n", d.Allowed, d.Denied)
	b.WriteString("## Latest activity\n\n")
	var lines []string
	for _, ev := range evs {
		switch {
		case ev.Lane == journal.Tool, ev.Lane == journal.Supervisor,
			ev.Lane == journal.System && ev.Kind != "run-start":
			lines = append(lines, fmt.Sprintf("- %s [%s] %s", ev.Time.Local().Format("15:04:05"), ev.Lane, oneLine(ev.Text)))
		}
	}
	if len(lines) > 20 {
		lines = lines[len(lines)-20:]
	}
	if len(lines) == 0 {
		lines = []string{"- nothing yet"}
	}
	b.WriteString(strings.Join(lines, "\n") + "\n")
	return b.String()
}

// renderFinalReport is FINAL_REPORT.md.
func renderFinalReport(m *Meta, evs []journal.Event, flagged []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Final report — run %s\n\n", m.ID)
	fmt.Fprintf(&b, "| | |\n|---|---|\n| status | **%s** |\n| task | %s |\n| coder | %s |\n| sandbox | %s |\n| started | %s |\n| ended | %s |\n| base | %s |\n",
		m.Status, cell(oneLine(m.Task)), m.Coder, cell(m.Sandbox), m.Started.Local().Format(time.RFC1123), m.Ended.Local().Format(time.RFC1123), short(m.Base))
	if m.Error != "" {
		fmt.Fprintf(&b, "| error | %s |\n", cell(m.Error))
	}
	b.WriteString("\n## Changed files\n\n")
	if len(m.Files) == 0 {
		b.WriteString("None.\n")
	}
	for _, f := range m.Files {
		fmt.Fprintf(&b, "- `%s`\n", f)
	}
	if m.SandboxOff {
		b.WriteString("\n## Verification (clean copy, NOT sandboxed: --sandbox off)\n\n")
	} else {
		b.WriteString("\n## Verification (clean copy, sandboxed, network off)\n\n")
	}
	if len(m.Checks) == 0 {
		b.WriteString("No checks ran.\n")
	} else {
		b.WriteString("| check | source | exit | duration |\n|---|---|---|---|\n")
		for _, c := range m.Checks {
			fmt.Fprintf(&b, "| `%s` | %s | %d | %s |\n", cell(c.Command), c.Source, c.ExitCode, time.Duration(c.DurationMS)*time.Millisecond)
		}
	}
	d := CountDecisions(evs)
	fmt.Fprintf(&b, "\n## Approvals\n\n%d allowed, %d denied.\n\n", d.Allowed, d.Denied)
	if t := supervisor.TotalsFromEvents(evs); t.Turns > 0 {
		fmt.Fprintf(&b, "Supervisor model: %s.\n\n", strings.TrimPrefix(t.String(), "supervisor: "))
	}
	keys := make([]string, 0, len(d.By))
	for k := range d.By {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "- decided by %s: %d\n", k, d.By[k])
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
			fmt.Fprintf(&b, "| %s | `%s` | %s | %s |\n", r.Kind, cell(r.What), r.By, cell(r.Reason))
		}
	}
	b.WriteString("\n## What landed\n\n")
	switch {
	case m.Landing == nil && m.Recovery != "":
		fmt.Fprintf(&b, "Nothing. The work is kept in `%s` (patch and workspace).\n", m.Recovery)
	case m.Landing == nil:
		b.WriteString("Nothing.\n")
	case m.Landing.Nothing:
		b.WriteString("Nothing: the coder changed no files.\n")
	case m.Landing.Branch != "":
		fmt.Fprintf(&b, "Branch `%s` (commit %s); your checkout was not touched.\n", m.Landing.Branch, short(m.Landing.Commit))
	case m.Landing.Mode == ApplyWorktree:
		b.WriteString("Applied to your working tree.\n")
	default:
		b.WriteString("Nothing applied (`--apply none`); the patch is `patch.diff` in the run directory.\n")
	}
	b.WriteString("\n## Remaining risks\n\n")
	var risks []string
	for _, f := range flagged {
		risks = append(risks, fmt.Sprintf("- `%s` runs code later (review it before use)", f))
	}
	if len(m.Checks) == 0 && len(m.Files) > 0 {
		risks = append(risks, "- no verification check ran: configure `[verify] commands` in .sentinel/config.toml or pass --verify")
	}
	for _, c := range m.Checks {
		if !c.Passed() {
			risks = append(risks, fmt.Sprintf("- check `%s` failed (exit %d)", c.Command, c.ExitCode))
		}
	}
	risks = append(risks, gateRisks(evs)...) // every gate that failed (gates.go)
	if m.SandboxOff {
		risks = append(risks, "- the coder ran WITHOUT a sandbox (--sandbox off): it could read and write anything you can")
	}
	if len(risks) == 0 {
		risks = []string{"- none found"}
	}
	b.WriteString(strings.Join(risks, "\n") + "\n")
	return b.String()
}

// FlaggedPaths are changed files that run code later (SECURITY.md layer 4).
func FlaggedPaths(files []string) []string {
	var out []string
	for _, f := range files {
		if patch.RunsCodeLater(f) {
			out = append(out, f)
		}
	}
	return out
}

func cell(s string) string {
	s = strings.ReplaceAll(s, "|", "\\|")
	s = strings.ReplaceAll(s, "`", "'")
	return strings.ReplaceAll(s, "\n", " ")
}

// writeAtomic replaces a report file in one rename.
func writeAtomic(path, body string) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(body), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// keepReports rewrites PROGRESS.md and DECISIONS.md as events arrive, at
// most a few times a second, until the journal closes.
func (r *Run) keepReports() {
	events, cancel := r.journal.Subscribe(256, true)
	defer cancel()
	var evs []journal.Event
	dirty := false
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				return
			}
			evs = append(evs, ev)
			dirty = dirty || ev.Lane != journal.Coder
		case <-tick.C:
			if dirty {
				r.writeLiveReports(evs)
				dirty = false
			}
		}
	}
}

func (r *Run) writeLiveReports(evs []journal.Event) {
	m := r.startMeta
	_ = writeAtomic(filepath.Join(r.dir, "PROGRESS.md"), renderProgress(&m, evs, time.Now()))
	_ = writeAtomic(filepath.Join(r.dir, "DECISIONS.md"), renderDecisions(&m, evs))
}
