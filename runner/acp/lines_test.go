package acp

import (
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/sentinelhq/sentinel/internal/journal"
)

func TestLineWriter(t *testing.T) {
	t.Parallel()
	type step struct {
		update *sdk.SessionUpdate // nil: flush
	}
	u := func(x sdk.SessionUpdate) step { return step{&x} }
	flush := step{}
	tests := []struct {
		name  string
		steps []step
		want  []Line // Lane, Kind and Text only
	}{
		{"chunks join into lines; the rest comes on flush",
			[]step{u(sdk.UpdateAgentMessageText("Hel")), u(sdk.UpdateAgentMessageText("lo\nWor")), u(sdk.UpdateAgentMessageText("ld")), flush},
			[]Line{{Lane: journal.Coder, Kind: "text", Text: "Hello"}, {Lane: journal.Coder, Kind: "text", Text: "World"}}},
		{"blank lines are dropped",
			[]step{u(sdk.UpdateAgentMessageText("a\n\n  \r\nb\n")), flush},
			[]Line{{Lane: journal.Coder, Kind: "text", Text: "a"}, {Lane: journal.Coder, Kind: "text", Text: "b"}}},
		{"execute tool call is a run with the command as its title",
			[]step{u(sdk.StartToolCall("t1", "go test ./...", sdk.WithStartKind(sdk.ToolKindExecute)))},
			[]Line{{Lane: journal.Tool, Kind: "run", Text: "go test ./..."}}},
		{"other tool calls name their kind",
			[]step{u(sdk.StartToolCall("t1", "main.go", sdk.WithStartKind(sdk.ToolKindRead)))},
			[]Line{{Lane: journal.Tool, Kind: "tool-call", Text: "read: main.go"}}},
		{"a tool call flushes the message before it",
			[]step{u(sdk.UpdateAgentMessageText("Running it")), u(sdk.StartToolCall("t1", "make", sdk.WithStartKind(sdk.ToolKindExecute)))},
			[]Line{{Lane: journal.Coder, Kind: "text", Text: "Running it"}, {Lane: journal.Tool, Kind: "run", Text: "make"}}},
		{"completed update with content is a result with its text",
			[]step{
				u(sdk.StartToolCall("t1", "make", sdk.WithStartKind(sdk.ToolKindExecute))),
				u(sdk.UpdateToolCall("t1", sdk.WithUpdateStatus(sdk.ToolCallStatusInProgress))),
				u(sdk.UpdateToolCall("t1", sdk.WithUpdateStatus(sdk.ToolCallStatusCompleted),
					sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock("built ok\n  2 files"))}))),
			},
			[]Line{{Lane: journal.Tool, Kind: "run", Text: "make"}, {Lane: journal.Tool, Kind: "result", Text: "completed: built ok 2 files"}}},
		{"failed update without content",
			[]step{u(sdk.UpdateToolCall("t2", sdk.WithUpdateStatus(sdk.ToolCallStatusFailed)))},
			[]Line{{Lane: journal.Tool, Kind: "result", Text: "failed"}}},
		{"thought chunks are thinking",
			[]step{u(sdk.UpdateAgentThoughtText("  weighing\n options ")), u(sdk.UpdateAgentThoughtText("   "))},
			[]Line{{Lane: journal.Coder, Kind: "thinking", Text: "(thinking) weighing options"}}},
		{"plan",
			[]step{u(sdk.UpdatePlan(sdk.PlanEntry{Content: "write tests", Status: sdk.PlanEntryStatusInProgress, Priority: sdk.PlanEntryPriorityHigh}))},
			[]Line{{Lane: journal.Coder, Kind: "plan", Text: "plan: [in_progress] write tests"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []Line
			w := newLineWriter(func(l Line) { got = append(got, Line{Lane: l.Lane, Kind: l.Kind, Text: l.Text}) })
			for _, s := range tt.steps {
				if s.update == nil {
					w.flush()
					continue
				}
				w.update(*s.update)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("lines %+v, want %+v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("line %d = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestLineWriterHoldsAPartialLineUntilFlush(t *testing.T) {
	t.Parallel()
	var got []string
	w := newLineWriter(func(l Line) { got = append(got, l.Text) })
	w.update(sdk.UpdateAgentMessageText("no newline yet"))
	if len(got) != 0 {
		t.Fatalf("a partial line was emitted early: %q", got)
	}
	w.flush()
	w.flush()
	if strings.Join(got, "|") != "no newline yet" {
		t.Errorf("after flush: %q, want the line once", got)
	}
}

func TestResultDataKeepsTheTitle(t *testing.T) {
	t.Parallel()
	var got []Line
	w := newLineWriter(func(l Line) { got = append(got, l) })
	w.update(sdk.StartToolCall("t9", "ls -la", sdk.WithStartKind(sdk.ToolKindExecute)))
	w.update(sdk.UpdateToolCall("t9", sdk.WithUpdateStatus(sdk.ToolCallStatusCompleted)))
	if len(got) != 2 {
		t.Fatalf("lines %+v", got)
	}
	d, ok := got[1].Data.(map[string]any)
	if !ok || d["title"] != "ls -la" {
		t.Errorf("result data %+v, want the call's title ls -la", got[1].Data)
	}
}

func TestAFailedToolCallSaysSoAsData(t *testing.T) {
	t.Parallel()
	var got []Line
	w := newLineWriter(func(l Line) { got = append(got, l) })
	w.update(sdk.StartToolCall("t1", "false", sdk.WithStartKind(sdk.ToolKindExecute)))
	w.update(sdk.UpdateToolCall("t1", sdk.WithUpdateStatus(sdk.ToolCallStatusFailed)))
	w.update(sdk.StartToolCall("t2", "true", sdk.WithStartKind(sdk.ToolKindExecute)))
	w.update(sdk.UpdateToolCall("t2", sdk.WithUpdateStatus(sdk.ToolCallStatusCompleted)))
	if len(got) != 4 {
		t.Fatalf("lines %+v", got)
	}
	for i, want := range map[int]bool{1: true, 3: false} {
		if d, ok := got[i].Data.(map[string]any); !ok || d["failed"] != want {
			t.Errorf("result %d data %+v, want failed=%v", i, got[i].Data, want)
		}
	}
}
