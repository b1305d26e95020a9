package codexhook

import (
	"encoding/json"
	"testing"

	"github.com/sentinelhq/sentinel/runner/hooks"
)

// A note (a host the proxy refused while the command ran) reaches Codex
// in the one place its hook output schema takes one: PostToolUse's
// hookSpecificOutput.additionalContext (`sentinel exec -- codex`).
func TestCodexHookNote(t *testing.T) {
	out := HookDialect.Note(hooks.Event{Adapter: HookName, Name: "PostToolUse"}, "refused a.example:443")
	var m struct {
		H struct {
			Event   string `json:"hookEventName"`
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &m); err != nil || m.H.Event != "PostToolUse" || m.H.Context != "refused a.example:443" {
		t.Fatalf("codex output %q (%v)", out, err)
	}
	if out := HookDialect.Note(hooks.Event{Adapter: HookName, Name: "Stop"}, "x"); out != nil {
		t.Errorf("a note on a Stop hook (Codex refuses additionalContext there): %s", out)
	}
}
