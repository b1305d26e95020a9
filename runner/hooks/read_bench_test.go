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
