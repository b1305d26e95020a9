package claude

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
	"github.com/sentinelhq/sentinel/policy"
)

// TestRealClaudeWebFetchAsksForTheHost: the real Claude Code's WebFetch of a
// host nobody allowed becomes a net approval request for that host; with no
// person to ask it is denied, the model is told why, and nothing of it lands.
func TestRealClaudeWebFetchAsksForTheHost(t *testing.T) {
	t.Parallel()
	e2etest.NeedClaude(t)
	dir := e2etest.ScratchRepo(t)
	const host = "docs.unlisted-host.example"
	model := e2etest.StartModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Text("Reading the docs."),
			fakemodel.ToolUse("WebFetch", map[string]any{"url": "https://" + host + "/guide", "prompt": "Summarize the guide."})),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("I could not read it.")}},
	})
	// WebFetch is one of Claude Code 2.1.332's deferred tools (not in the
	// first request's tool list until ToolSearch loads it); a call to it
	// still runs, through the same hook.
	res := e2etest.Sentinel(t, dir, e2etest.ClaudeEnv(t, model), "run", "--coder", "claude", "--headless", "--plain", "--allow-host", e2etest.ModelHost(model), "read the guide")
	if len(model.Requests()) != 2 {
		t.Fatalf("the model got %d requests, want 2 (exit %d)\nstderr: %s\nstdout:\n%s", len(model.Requests()), res.Code, res.Stderr, res.Stdout)
	}
	id := e2etest.LastRun(t, dir)
	js := e2etest.ApprovalsOf(t, e2etest.RunEvents(t, dir, id))
	if len(js) != 1 {
		t.Fatalf("approvals, want one for the WebFetch:\n%s", e2etest.Describe(js))
	}
	j := js[0]
	if j.Request.Kind != policy.KindNet || j.Request.Host != host || j.Request.Tool != "WebFetch" {
		t.Errorf("request = %s, want a net request for %s from WebFetch", e2etest.JSONOf(j.Request), host)
	}
	if j.Decision.Allowed() || j.Decision.By != "nobody" {
		t.Errorf("decision = %s by %s (%s), want a deny with no one to ask", j.Decision.Outcome, j.Decision.By, j.Decision.Reason)
	}
	rs := e2etest.ToolResults(model)
	if len(rs) != 1 || !rs[0].IsError || !strings.Contains(rs[0].Content, j.Decision.Reason) {
		t.Errorf("the model was not told the deny reason %q: %s", j.Decision.Reason, e2etest.JSONOf(rs))
	}
	if p := e2etest.PatchOf(dir, id); strings.Contains(p, host) {
		t.Errorf("the fetched page reached the workspace:\n%s", p)
	}
}
