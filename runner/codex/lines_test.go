package codex

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

func TestDecodeNotification(t *testing.T) {
	tests := []struct {
		name, method, params string
		lane                 journal.Lane
		kind                 journal.Kind
		text                 string
	}{
		{"agent message", "item/completed", `{"item":{"type":"agentMessage","id":"m1","text":"Adding the endpoint."}}`,
			journal.Coder, "text", "Adding the endpoint."},
		{"command starts", "item/started", `{"item":{"type":"commandExecution","id":"c1","command":"/bin/bash -lc 'go test ./...'","cwd":"/ws","status":"inProgress","commandActions":[]}}`,
			journal.Tool, "tool-call", "$ /bin/bash -lc 'go test ./...'"},
		{"command ends", "item/completed", `{"item":{"type":"commandExecution","id":"c1","command":"make","cwd":"/ws","status":"failed","exitCode":2,"aggregatedOutput":"boom\n","commandActions":[]}}`,
			journal.Tool, "tool-result", "make → exit 2\nboom"},
		{"command exits 1 reporting success", "item/completed", `{"item":{"type":"commandExecution","id":"c2","command":"false","cwd":"/ws","status":"completed","exitCode":1,"commandActions":[]}}`,
			journal.Tool, "tool-result", "false → exit 1"},
		{"command declined", "item/completed", `{"item":{"type":"commandExecution","id":"c1","command":"sudo ls","cwd":"/ws","status":"declined","commandActions":[]}}`,
			journal.Tool, "tool-result", "sudo ls → declined"},
		{"file change", "item/started", `{"item":{"type":"fileChange","id":"f1","status":"inProgress","changes":[{"path":"/ws/a.go","kind":{"type":"update","move_path":"/ws/b.go"},"diff":""},{"path":"/ws/c.go","kind":{"type":"add"},"diff":""}]}}`,
			journal.Tool, "tool-call", "edit /ws/a.go → /ws/b.go, /ws/c.go"},
		{"turn completed", "turn/completed", `{"threadId":"t","turn":{"id":"u","status":"completed","items":[]}}`,
			journal.System, "result", "codex finished the turn (completed)"},
		{"turn failed", "turn/completed", `{"threadId":"t","turn":{"id":"u","status":"failed","error":{"message":"stream disconnected"},"items":[]}}`,
			journal.System, "result", "codex turn failed: stream disconnected"},
		{"error retrying", "error", `{"error":{"message":"429"},"willRetry":true,"threadId":"t","turnId":"u"}`,
			journal.System, "error", "codex error: 429 (retrying)"},
		{"warning", "warning", `{"threadId":"t","message":"Model metadata not found"}`,
			journal.System, "warning", "codex: Model metadata not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := DecodeNotification(tt.method, json.RawMessage(tt.params))
			if len(got) != 1 {
				t.Fatalf("got %d lines %+v, want 1", len(got), got)
			}
			if got[0].Lane != tt.lane || got[0].Kind != tt.kind || got[0].Text != tt.text {
				t.Errorf("got %s/%s %q, want %s/%s %q", got[0].Lane, got[0].Kind, got[0].Text, tt.lane, tt.kind, tt.text)
			}
			data := got[0].Data
			if tt.kind == "tool-result" { // how it went, with the params as Codex sent them
				var d struct {
					Failed bool            `json:"failed"`
					Agent  json.RawMessage `json:"agent"`
				}
				_ = json.Unmarshal(data, &d)
				if want := strings.HasPrefix(tt.name, "command e"); d.Failed != want {
					t.Errorf("data says failed=%v, want %v: %s", d.Failed, want, data)
				}
				data = d.Agent
			}
			if string(data) != tt.params {
				t.Errorf("data = %s, want the notification's params", data)
			}
		})
	}
}

func TestDecodeNotificationSkipsBookkeeping(t *testing.T) {
	for _, m := range []struct{ method, params string }{
		{"item/agentMessage/delta", `{"delta":"Add"}`},
		{"thread/tokenUsage/updated", `{}`},
		{"item/started", `{"item":{"type":"agentMessage","id":"m","text":""}}`},
		{"item/completed", `{"item":{"type":"userMessage","id":"u","content":[]}}`},
		{"item/completed", `{"item":{"type":"reasoning","id":"r"}}`},
	} {
		if got := DecodeNotification(m.method, json.RawMessage(m.params)); len(got) != 0 {
			t.Errorf("%s %s gave %+v, want nothing", m.method, m.params, got)
		}
	}
}
