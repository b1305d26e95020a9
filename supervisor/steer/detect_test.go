package steer

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/supervisor"
)

func requestEvent(t testing.TB, seq int64, r approvals.Request) journal.Event {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return journal.Event{Seq: seq, Lane: journal.Approval, Kind: "request", Text: r.Summary(), Data: b}
}

func shell(t testing.TB, seq int64, cmd string) journal.Event {
	return requestEvent(t, seq, approvals.Request{Kind: policy.KindShell, Command: cmd, ToolCallID: "toolu_" + cmd})
}

func edit(t testing.TB, seq int64, path, old, new string) journal.Event {
	in, _ := json.Marshal(map[string]string{"file_path": path, "old_string": old, "new_string": new})
	return requestEvent(t, seq, approvals.Request{Kind: policy.KindEdit, Path: path, Input: in})
}

func failure(seq int64, toolUseID, text string) journal.Event {
	// As the Claude adapter journals it: how it went as data, the agent's
	// own message beside it.
	agent, _ := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"content": []any{
		map[string]any{"type": "tool_result", "tool_use_id": toolUseID, "is_error": true}}}})
	data, _ := json.Marshal(approvals.ToolResult{Failed: true, ToolCallID: toolUseID, Agent: agent})
	return journal.Event{Seq: seq, Lane: journal.Tool, Kind: "tool-result", Text: "error: " + text, Data: data}
}

// exited is a finished command as the demo and Codex adapters journal it.
func exited(seq int64, text string, code int) journal.Event {
	data, _ := json.Marshal(map[string]any{"exit_code": code})
	return journal.Event{Seq: seq, Lane: journal.Tool, Kind: "result", Text: text, Data: data}
}

func TestDetect(t *testing.T) {
	cases := []struct {
		name string
		evs  func(t *testing.T) []journal.Event
		want []Kind
	}{
		{"masked exit", func(t *testing.T) []journal.Event {
			return []journal.Event{shell(t, 1, "go test ./... | tail -5")}
		}, []Kind{KindMaskedExit}},
		{"the same masking twice is told once", func(t *testing.T) []journal.Event {
			return []journal.Event{shell(t, 1, "go test ./... || true"), shell(t, 2, "go test ./... || true")}
		}, []Kind{KindMaskedExit}},
		{"deleted test file", func(t *testing.T) []journal.Event {
			return []journal.Event{shell(t, 1, "rm internal/api/api_test.go")}
		}, []Kind{KindDeletedTest}},
		{"t.Skip added", func(t *testing.T) []journal.Event {
			return []journal.Event{edit(t, 1, "/ws/api_test.go", "func TestX(t *testing.T) {", "func TestX(t *testing.T) {\n\tt.Skip(\"later\")")}
		}, []Kind{KindSkippedTest}},
		{"expectation edited", func(t *testing.T) []journal.Event {
			return []journal.Event{edit(t, 1, "/ws/calc_test.go", "{in: 2, want: 4},", "{in: 2, want: 5},")}
		}, []Kind{KindEditedExpectation}},
		{"golden files rewritten", func(t *testing.T) []journal.Event {
			return []journal.Event{shell(t, 1, "go test ./tui -update")}
		}, []Kind{KindEditedExpectation}},
		{"three identical failures", func(t *testing.T) []journal.Event {
			var evs []journal.Event
			for i := int64(0); i < 3; i++ {
				evs = append(evs, shell(t, 2*i+1, "go build ./..."), failure(2*i+2, "toolu_go build ./...", "undefined: Foo"))
			}
			return evs
		}, []Kind{KindRepeatedFailure}},
		{"three identical exit statuses (demo and codex result lines)", func(t *testing.T) []journal.Event {
			var evs []journal.Event
			for i := int64(0); i < 3; i++ {
				evs = append(evs, shell(t, 2*i+1, "make"),
					exited(2*i+2, "make → exit 2\nboom", 2))
			}
			return evs
		}, []Kind{KindRepeatedFailure}},
		{"exit 0 three times is fine", func(t *testing.T) []journal.Event {
			var evs []journal.Event
			for i := int64(0); i < 3; i++ {
				evs = append(evs, shell(t, 2*i+1, "make"),
					exited(2*i+2, "make → exit 0", 0))
			}
			return evs
		}, nil},
		{"a failure spelled only in the coder's text is not one", func(t *testing.T) []journal.Event {
			var evs []journal.Event
			for i := int64(0); i < 3; i++ {
				evs = append(evs, shell(t, 2*i+1, "make"),
					journal.Event{Seq: 2*i + 2, Lane: journal.Tool, Kind: "result", Text: "error: make → exit 2"})
			}
			return evs
		}, nil},
		{"two failures are not yet a pattern", func(t *testing.T) []journal.Event {
			return []journal.Event{shell(t, 1, "go build ./..."), failure(2, "", "undefined: Foo"),
				shell(t, 3, "go build ./..."), failure(4, "", "undefined: Foo")}
		}, nil},
		{"different errors are progress", func(t *testing.T) []journal.Event {
			var evs []journal.Event
			for i, e := range []string{"undefined: Foo", "undefined: Bar", "missing return"} {
				evs = append(evs, shell(t, int64(2*i+1), "go build ./..."), failure(int64(2*i+2), "", e))
			}
			return evs
		}, nil},
		{"an honest run", func(t *testing.T) []journal.Event {
			return []journal.Event{shell(t, 1, "go test ./..."), edit(t, 2, "/ws/calc.go", "return a-b", "return a+b"),
				{Seq: 3, Lane: journal.Tool, Kind: "tool-result", Text: "ok  example.com/calc 0.01s"}}
		}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Detect(c.evs(t))
			var kinds []Kind
			for _, f := range got {
				kinds = append(kinds, f.Kind)
				if f.Detail == "" || f.Seq == 0 {
					t.Errorf("finding %+v has no detail or seq", f)
				}
			}
			if strings.Join(kindNames(kinds), ",") != strings.Join(kindNames(c.want), ",") {
				t.Errorf("findings %v, want %v (%+v)", kinds, c.want, got)
			}
		})
	}
}

func kindNames(ks []Kind) []string {
	var out []string
	for _, k := range ks {
		out = append(out, string(k))
	}
	return out
}

func TestWatcherSteersOnAMaskedExitStatus(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	j, err := journal.Open(path, "run-1")
	if err != nil {
		t.Fatal(err)
	}
	var sent []string
	w := &Watcher{Journal: j, Steer: func(text string) error { sent = append(sent, text); return nil }}
	in, _ := json.Marshal(approvals.Request{Kind: policy.KindShell, Command: "go test ./... 2>&1 | tail -20"})
	ev, err := j.Append(journal.Approval, "request", "shell: go test", json.RawMessage(in))
	if err != nil {
		t.Fatal(err)
	}
	w.Observe(ev)
	w.Observe(ev) // the same event again: told once
	j.Close()
	if len(sent) != 1 {
		t.Fatalf("the coder was steered %d times, want 1: %q", len(sent), sent)
	}
	for _, want := range []string{"`go test ./... 2>&1 | tail -20`", "hides the command's exit status", "pipefail"} {
		if !strings.Contains(sent[0], want) {
			t.Errorf("steering message %q does not say %q", sent[0], want)
		}
	}
	evs, err := journal.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var noted bool
	for _, e := range evs {
		if e.Lane == journal.Supervisor && e.Kind == "steer-finding" && strings.Contains(e.Text, "masked_exit") {
			noted = true
		}
	}
	if !noted {
		t.Error("the finding is not in the journal on the supervisor lane")
	}
}

func TestWatcherUsesOverriddenSteeringText(t *testing.T) {
	file := filepath.Join(t.TempDir(), "prompts.toml")
	if err := writeFile(file, "[steer]\nmasked_exit = \"STOP MASKING: {{.Detail}}\"\n"); err != nil {
		t.Fatal(err)
	}
	p, err := supervisor.LoadPrompts(file)
	if err != nil {
		t.Fatal(err)
	}
	var sent []string
	w := &Watcher{Prompts: p, Steer: func(text string) error { sent = append(sent, text); return nil }}
	w.Observe(shell(t, 1, "pytest || true"))
	if len(sent) != 1 || sent[0] != "STOP MASKING: `pytest || true`" {
		t.Fatalf("sent %q", sent)
	}
}

func TestWatcherIgnoresSupervisorLane(t *testing.T) {
	called := false
	w := &Watcher{Steer: func(string) error { called = true; return nil }}
	ev := shell(t, 1, "go test || true")
	ev.Lane = journal.Supervisor
	w.Observe(ev)
	if called {
		t.Fatal("the watcher reacted to a supervisor-lane event")
	}
}
