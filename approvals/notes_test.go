package approvals

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCoderNotesAreTakenOnceAndOnlyClaudePrintsThem(t *testing.T) {
	var n coderNotes
	n.add("refused a.example:443")
	n.add("refused a.example:443")
	n.add("refused b.example:443")
	if got := n.take(); got != "refused a.example:443\nrefused b.example:443" {
		t.Fatalf("take = %q", got)
	}
	if got := n.take(); got != "" {
		t.Fatalf("a note was handed out twice: %q", got)
	}
	out := FormatReportNote(HookEvent{Adapter: HookClaude, Name: "PostToolUse"}, "refused a.example:443")
	var m struct {
		H struct {
			Event   string `json:"hookEventName"`
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &m); err != nil || m.H.Event != "PostToolUse" || m.H.Context != "refused a.example:443" {
		t.Fatalf("claude output %s (%v)", out, err)
	}
	if out := FormatReportNote(HookEvent{Adapter: HookClaude, Name: "Stop"}, "x"); out != nil {
		t.Errorf("a note on a Stop hook: %s", out)
	}
	if out := FormatReportNote(HookEvent{Adapter: HookClaude, Name: "PostToolUse"}, ""); out != nil {
		t.Errorf("an empty note printed: %s", out)
	}
	for i := 0; i < maxNotes+5; i++ {
		n.add(strings.Repeat("x", i+1))
	}
	if got := n.take(); !strings.Contains(got, "and 5 more") {
		t.Errorf("a flood of notes is not summarized: %q", got)
	}
}
