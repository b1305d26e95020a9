package claude

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// TestHeadlessClaudeShowsEachToolCallOnce: the real Claude Code headless
// (stream-json) under `sentinel run --plain`, driven by the fake model,
// runs two commands. Its stream repeats each call and result the hooks
// already report; the tool lane names each command once, while the
// journal keeps the stream's copy too.
func TestHeadlessClaudeShowsEachToolCallOnce(t *testing.T) {
	t.Parallel()
	e2etest.NeedClaude(t)
	dir := e2etest.ScratchRepo(t)
	model := e2etest.StartModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Text("Writing."), fakemodel.Bash("echo one-marker-7q > one.txt")),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Bash("echo two-marker-7q > two.txt")}},
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("All done.")}},
	})
	res := e2etest.Sentinel(t, dir, e2etest.ClaudeEnv(t, model), "run", "--coder", "claude", "--headless", "--plain", "--allow-host", e2etest.ModelHost(model), "write two files")
	if res.Code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
	}
	for _, marker := range []string{"one-marker-7q", "two-marker-7q"} {
		var tool []string
		for _, l := range strings.Split(res.Stdout, "\n") {
			if strings.HasPrefix(l, "[TOOL]") && strings.Contains(l, marker) {
				tool = append(tool, l)
			}
		}
		if len(tool) != 1 {
			t.Errorf("the tool lane shows the call with %s %d times, want once:\n%s\n--- whole output:\n%s", marker, len(tool), strings.Join(tool, "\n"), res.Stdout)
		}
	}
	streamed := 0
	for _, ev := range e2etest.RunEvents(t, dir, e2etest.LastRun(t, dir)) {
		if ev.Is(journal.Tool, coderstream.StreamCall) && strings.Contains(ev.Text, "-marker-7q") {
			streamed++
		}
	}
	if streamed != 2 {
		t.Errorf("the journal keeps %d of the stream's tool calls, want 2", streamed)
	}
}
