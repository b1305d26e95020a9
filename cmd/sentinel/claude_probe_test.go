package main

import (
	"testing"

	"github.com/sentinelhq/sentinel/internal/fakemodel"
)

func TestProbeWebFetchApproved(t *testing.T) {
	needClaude(t)
	dir := scratchRepo(t)
	const host = "docs.unlisted-host.example"
	model := startModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.ToolUse("WebFetch", map[string]any{"url": "https://" + host + "/guide", "prompt": "Summarize the guide."})),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("ok.")}},
	})
	screen, code := runAtTerminal(t, dir, claudeEnv(t, model), []answer{
		{after: "└─ [a]pprove once", send: "a"},
		{after: "└─ [a]pprove once", send: "d"},
		{after: "message for the coder", send: "probe"},
	}, "run", "--coder", "claude", "--headless", "--plain", "--apply", "none", "--allow-host", modelHost(model), "read")
	t.Logf("exit %d\n%s", code, screen)
	t.Logf("results %s", jsonOf(toolResults(model)))
}
