//go:build unix

package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// Garbage on stdin is answered with JSON-RPC errors, and the session goes
// on: the call after it is answered.
func TestStdioSurvivesBadInput(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv, err := New(mustConfig(t, f.config("")), Options{Transport: "stdio"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.ServeStdio(context.Background(), inR, outW); outW.Close() }()
	lines := bufio.NewScanner(outR)
	lines.Buffer(nil, 1<<20)
	send := func(s string) { io.WriteString(inW, s+"\n") }
	next := func() map[string]any {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("the server stopped: %v", lines.Err())
		}
		var m map[string]any
		if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
			t.Fatalf("not JSON: %s", lines.Bytes())
		}
		return m
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`)
	if m := next(); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for bad, code := range map[string]float64{`{not json`: -32700, `[1, 2]`: -32600, `{"id": 7, "foo": 1}`: -32600, strings.Repeat("x", int(srv.cfg.Limits.MaxRequestBytes())+10): -32600} {
		send(bad)
		m := next()
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != code {
			t.Fatalf("%.40q: %v", bad, m)
		}
	}
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read","arguments":{"path":"` + f.rw + `/notes.txt"}}}`)
	if m := next(); m["id"] != float64(2) || !strings.Contains(string(mustJSON(m)), "hello world") {
		t.Fatalf("the call after the garbage: %v", m)
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope","arguments":{}}}`)
	if m := next(); m["error"] == nil {
		t.Fatalf("an unknown tool: %v", m)
	}
	inW.Close()
	if err := <-done; err != nil && err != io.EOF {
		t.Logf("serve ended: %v", err)
	}
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }
