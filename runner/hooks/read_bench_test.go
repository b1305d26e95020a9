package hooks

import (
	"encoding/json"
	"strings"
	"testing"
)

// The price of reading a large Write's payload (its content is most of it):
// go test -run '^$' -bench ReadLargeWrite ./runner/hooks
func BenchmarkReadLargeWrite(b *testing.B) {
	content := strings.Repeat("package main\n\nfunc f() { println(\"x\") }\n", 5000)
	in, _ := json.Marshal(map[string]string{"file_path": "/w/a.go", "content": content})
	p, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Write", "cwd": "/w",
		"tool_use_id": "t", "tool_input": json.RawMessage(in)})
	b.SetBytes(int64(len(p)))
	for range b.N {
		if ev, err := Read("claude", p); err != nil || ev.Request.Path != "/w/a.go" {
			b.Fatalf("%+v, %v", ev.Request, err)
		}
	}
}

// The price of reading a large command's result (its output is most of it):
// go test -run '^$' -bench ReadLargeOutput ./runner/hooks
func BenchmarkReadLargeOutput(b *testing.B) {
	out := strings.Repeat("package main\n\nfunc f() { println(\"x\") }\n", 5000)
	resp, _ := json.Marshal(map[string]any{"stdout": out, "stderr": "", "interrupted": false, "exit_code": 0})
	p, _ := json.Marshal(map[string]any{"hook_event_name": "PostToolUse", "tool_name": "Bash", "cwd": "/w",
		"tool_use_id": "t", "tool_input": map[string]string{"command": "cat a.go"}, "tool_response": json.RawMessage(resp)})
	b.SetBytes(int64(len(p)))
	for range b.N {
		if ev, err := Read("claude", p); err != nil || ev.Report == nil || ev.Report.ExitCode == nil {
			b.Fatalf("%+v, %v", ev.Report, err)
		}
	}
}
