package claudehook

import (
	"encoding/json"
	"testing"

	"github.com/sentinelhq/sentinel/runner/hooks"
)

// A note (what Sentinel refused outside the hook's sight) reaches Claude
// Code as additionalContext of a tool-result hook, and only there.
func TestClaudeHookNote(t *testing.T) {
	out := HookDialect.Note(hooks.Event{Adapter: HookName, Name: "PostToolUse"}, "refused a.example:443")
	var m struct {
		H struct {
			Event   string `json:"hookEventName"`
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &m); err != nil || m.H.Event != "PostToolUse" || m.H.Context != "refused a.example:443" {
		t.Fatalf("claude output %s (%v)", out, err)
	}
	if out := HookDialect.Note(hooks.Event{Adapter: HookName, Name: "PostToolUseFailure"}, "x"); out == nil {
		t.Error("no note on a PostToolUseFailure hook")
	}
	if out := HookDialect.Note(hooks.Event{Adapter: HookName, Name: "Stop"}, "x"); out != nil {
		t.Errorf("a note on a Stop hook: %s", out)
	}
	if out := HookDialect.Note(hooks.Event{Adapter: HookName, Name: "PostToolUse"}, ""); out != nil {
		t.Errorf("an empty note printed: %s", out)
	}
}
