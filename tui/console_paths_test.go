package tui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/policy"
)

// TestConsoleCardShowsPathsRelativeToItsRun: a write card in the console
// names its path and cwd relative to the workspace of the run it came from
// (as that run's own screen does), names the run and project, and two
// runs' cards each use their own run's workspace.
func TestConsoleCardShowsPathsRelativeToItsRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := newConsole(ctx, newChrome(Options{}), func(queue.Answer) error { return nil })
	p.c.width, p.c.height = 120, 40
	now := time.Now()
	write := func(id, ws string, at time.Time) *queue.Entry {
		path := ws + "/src/app.go"
		in, _ := json.Marshal(map[string]string{"file_path": path, "content": "package app\n"})
		return &queue.Entry{ID: id, Run: "r-" + id, Project: "/src/" + id, Workspace: ws, Kind: policy.KindWrite, WaitingSince: at,
			Request: approvals.Request{ID: "b-" + id, Kind: policy.KindWrite, Path: path, Cwd: ws, Input: in, Adapter: "claude"},
			Verdict: policy.Verdict{Decision: policy.Ask, Rule: "write", Reason: "asks"}}
	}
	a := write("aa", "/state/sentinel/work/r-aa/ws", now)
	b := write("bb", "/state/sentinel/work/r-bb/ws", now.Add(time.Second))
	for _, e := range []*queue.Entry{a, b} {
		p.update(consoleQueueMsg(queue.Event{Type: queue.EventOpen, Entry: e}))
	}
	s := ansi.Strip(p.render())
	for _, want := range []string{"run      run r-aa in src/aa", "path     src/app.go", "+package app"} {
		if !strings.Contains(s, want) {
			t.Fatalf("the console card does not show %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "/state/sentinel/work") {
		t.Fatalf("the console card shows an absolute workspace path:\n%s", s)
	}
	if got := p.m.workspace(p.m.queue[1]); got != b.Workspace {
		t.Fatalf("the second run's card is relative to %q, want its own workspace %q", got, b.Workspace)
	}
}
