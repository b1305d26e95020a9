package runner

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// The reports count each decision by who made it as it took effect, and
// the counts are the journal's, line by line: a call the person's own
// Claude deny rule refused after the policy allowed it is the agent rules'
// deny; a person-only request with nobody there is nobody's; every failed
// tool call is listed, an MCP call only the stream reported too; the
// supervisor's steering is a remaining risk.
func TestReportsCountDecisionsByWhoMadeThem(t *testing.T) {
	t.Parallel()
	type d struct{ id, by, outcome, call string }
	decisions := []d{
		{"a-1", "policy:read", "allow", ""},
		{"a-2", "policy:rm", "deny", ""},
		{"a-3", "template:t1", "allow", ""},
		{"a-4", "person", "allow", ""},
		{"a-5", "supervisor", "deny", ""},
		{"a-6", "nobody", "deny", ""},
		{"a-7", "timeout", "deny", ""},
		{"a-8", "policy:build.project", "allow", "tu8"},
	}
	var evs []journal.Event
	for _, x := range decisions {
		evs = append(evs,
			ev(journal.Approval, "request", "shell: cmd "+x.id, fmt.Sprintf(`{"id":%q,"kind":"shell","command":"cmd %s","adapter":"claude","tool_call_id":%q}`, x.id, x.id, x.call)),
			ev(journal.Approval, "decision", x.outcome, fmt.Sprintf(`{"request_id":%q,"decision":%q,"by":%q,"reason":"r"}`, x.id, x.outcome, x.by)))
	}
	evs = append(evs,
		ev(journal.Tool, "tool-result", "Bash: cmd a-1 → exit 0", `{"tool_call_id":"h1"}`),
		ev(journal.Tool, "stream-tool-result", "error: notes server: connection closed", `{"failed":true,"tool_call_id":"m1"}`),
		ev(journal.Tool, "stream-tool-result", "error: Permission to use Bash has been denied", `{"failed":true,"tool_call_id":"tu8"}`),
		ev(journal.Supervisor, "steer-finding", "noticed", `{"kind":"masked-status","detail":"cargo test --offline || true","key":"k1"}`),
		ev(journal.System, "result", "claude finished", `{"type":"result","permission_denials":[{"tool_name":"Bash","tool_use_id":"tu8"}]}`),
	)
	m := &Meta{ID: "r1", Task: "t", Coder: "claude", Status: StatusLanded, Sandbox: "bwrap"}
	final := renderFinalReport(m, evs, nil)
	dec := renderDecisions(m, evs)

	want := map[string]int{"policy": 2, "a remembered template": 1, "you": 1, "the supervisor model": 1,
		"nobody present": 1, "nobody in time": 1, "your agent's own rules": 1}
	// DECISIONS.md's table, line by line.
	rows := map[string]int{}
	allowed, denied := 0, 0
	for _, l := range strings.Split(dec, "\n") {
		cells := strings.Split(l, " | ")
		if len(cells) != 6 || !strings.Contains(cells[2], "cmd a-") {
			continue
		}
		who, _, _ := strings.Cut(cells[4], " (")
		rows[who]++
		if cells[3] == "allow" {
			allowed++
		} else {
			denied++
		}
	}
	if fmt.Sprint(rows) != fmt.Sprint(want) || allowed != 3 || denied != 5 {
		t.Errorf("DECISIONS.md rows by who: %v (%d allowed, %d denied), want %v (3, 5):\n%s", rows, allowed, denied, want, dec)
	}
	// The counts both reports print.
	count := regexp.MustCompile(`(?m)^- decided by (.+): (\d+)$`)
	for name, doc := range map[string]string{"FINAL_REPORT.md": final, "DECISIONS.md": dec} {
		got := map[string]int{}
		for _, c := range count.FindAllStringSubmatch(doc, -1) {
			n, _ := strconv.Atoi(c[2])
			got[c[1]] += n
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s counts %v, want %v", name, got, want)
		}
	}
	for _, s := range []string{"3 allowed, 5 denied.", "| shell | `cmd a-8` | your agent's own rules |", "2 tool calls, 1 failed.",
		"- error: notes server: connection closed", "the supervisor steered the coder (masked-status): cargo test --offline \\|\\| true"} {
		if !strings.Contains(final, s) {
			t.Errorf("FINAL_REPORT.md lacks %q:\n%s", s, final)
		}
	}
	// The "by" column speaks the counts' words, never Sentinel's internal names.
	for _, s := range []string{"| policy (rm) |", "| a remembered template (t1) |", "| you |", "| nobody present |", "| the supervisor model |"} {
		if !strings.Contains(dec, s) {
			t.Errorf("DECISIONS.md lacks %q:\n%s", s, dec)
		}
	}
	for _, raw := range []string{"| policy:", "| template:", "(policy:", "| person |", "| nobody |", "| supervisor |", "agent-rules"} {
		if strings.Contains(dec, raw) || strings.Contains(final, raw) {
			t.Errorf("a report shows the internal name %q:\nDECISIONS.md:\n%s\nFINAL_REPORT.md:\n%s", raw, dec, final)
		}
	}
	if strings.Contains(final, "none found") {
		t.Errorf("FINAL_REPORT.md finds no risk after the supervisor steered the coder:\n%s", final)
	}
}
