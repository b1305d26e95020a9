package claude

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
	"github.com/sentinelhq/sentinel/policy"
)

// TestRealClaudeWebFetchAsksForTheHost: the real Claude Code's web access
// under `sentinel run --headless`, in one claude start for what three tests
// each started it for (TestRealClaudeWebFetchAsksForTheHost,
// TestRealClaudeWebFetchOfAnAllowedHostWorks and
// TestRealClaudeIsToldWhyTheProxyRefusedAHost):
//   - a WebFetch of a host nobody allowed becomes a net approval request for
//     that host; with no person to ask it is denied, the model is told why,
//     and nothing of it lands;
//   - a host the person let through with --allow-host really works for
//     WebFetch, end to end: the policy does not refuse it (it agrees with
//     the proxy), Claude Code's own domain preflight to api.anthropic.com
//     is skipped (Sentinel's host policy is the gate; that host is not
//     reachable through a gateway setup), and the page reaches the model;
//   - a project script the policy lets run fetches a host nobody allowed;
//     the proxy refuses it (no one to ask), and the reason reaches the model
//     with the command's result — the tool itself saw only a failed CONNECT.
func TestRealClaudeWebFetchAsksForTheHost(t *testing.T) {
	t.Parallel()
	e2etest.NeedClaude(t)
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed")
	}
	dir := e2etest.ScratchRepo(t)
	const unlisted, blocked, secret = "docs.unlisted-host.example", "blocked-docs.example", "GUIDE-TEXT-7741"
	p := filepath.Join(dir, "scripts", "fetch.sh")
	e2etest.WriteFile(t, p, "#!/bin/sh\ncurl -sS --max-time 30 -o /dev/null https://"+blocked+"/guide\necho fetch finished\n")
	if err := os.Chmod(p, 0o755); err != nil {
		t.Fatal(err)
	}
	e2etest.Git(t, dir, "add", "scripts/fetch.sh")
	e2etest.Git(t, dir, "commit", "-qm", "add fetch.sh")
	srv, hits, env := pageHost(t, secret)
	allowed := strings.TrimPrefix(srv.URL, "https://")
	after := func(b fakemodel.Block) fakemodel.Turn {
		return fakemodel.Turn{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{b}}
	}
	// WebFetch is one of Claude Code 2.1.332's deferred tools (not in the
	// first request's tool list until ToolSearch loads it); a call to it
	// still runs, through the same hook.
	model := e2etest.StartModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Text("Reading the docs."),
			fakemodel.ToolUse("WebFetch", map[string]any{"url": "https://" + unlisted + "/guide", "prompt": "Summarize the guide."})),
		after(fakemodel.ToolUse("WebFetch", map[string]any{"url": srv.URL + "/guide", "prompt": "Quote the guide."})),
		after(fakemodel.Bash("./scripts/fetch.sh")),
		after(fakemodel.Text("Done.")),
	})
	model.SetSideReply("The guide says: " + secret)
	res := e2etest.Sentinel(t, dir, append(e2etest.ClaudeEnv(t, model), env...), "run", "--coder", "claude", "--headless", "--plain",
		"--allow-host", e2etest.ModelHost(model), "--allow-host", allowed, "read the guides")
	reqs := model.Requests()
	if len(reqs) != 4 {
		t.Fatalf("the model got %d requests, want 4 (exit %d)\nstderr: %s\nstdout:\n%s", len(reqs), res.Code, res.Stderr, res.Stdout)
	}
	id := e2etest.LastRun(t, dir)
	js := e2etest.ApprovalsOf(t, e2etest.RunEvents(t, dir, id))
	rs := e2etest.ToolResults(model)
	if len(rs) != 3 {
		t.Fatalf("the model got %d tool results, want one for each of the 3 calls: %s", len(rs), e2etest.JSONOf(rs))
	}

	// The host nobody allowed: one net request, from WebFetch, denied.
	var about []approvals.Journaled
	for _, j := range js {
		if j.Request.Host == unlisted {
			about = append(about, j)
		}
	}
	if len(about) != 1 {
		t.Fatalf("approvals about %s, want one for the WebFetch:\n%s", unlisted, e2etest.Describe(js))
	}
	j := about[0]
	if j.Request.Kind != policy.KindNet || j.Request.Tool != "WebFetch" {
		t.Errorf("request = %s, want a net request for %s from WebFetch", e2etest.JSONOf(j.Request), unlisted)
	}
	if j.Decision.Allowed() || j.Decision.By != "nobody" {
		t.Errorf("decision = %s by %s (%s), want a deny with no one to ask", j.Decision.Outcome, j.Decision.By, j.Decision.Reason)
	}
	if !rs[0].IsError || !strings.Contains(rs[0].Content, j.Decision.Reason) {
		t.Errorf("the model was not told the deny reason %q: %s", j.Decision.Reason, e2etest.JSONOf(rs[0]))
	}
	if p := e2etest.PatchOf(dir, id); strings.Contains(p, unlisted) {
		t.Errorf("the fetched page reached the workspace:\n%s", p)
	}

	// The allowed host: reached, nothing refused but the two hosts nobody
	// allowed (no preflight to api.anthropic.com), the page in the result.
	if hits.Load() == 0 {
		t.Fatalf("the page host was never reached (exit %d)\napprovals:\n%s\ntool results: %s\nstdout:\n%s\nstderr: %s",
			res.Code, e2etest.Describe(js), e2etest.JSONOf(rs), res.Stdout, res.Stderr)
	}
	for _, j := range js {
		if j.Request.Kind == policy.KindNet && !j.Decision.Allowed() && j.Request.Host != unlisted && j.Request.Host != blocked {
			t.Errorf("a net request was refused: %s", e2etest.Describe([]approvals.Journaled{j}))
		}
	}
	if rs[1].IsError || !strings.Contains(rs[1].Content, secret) {
		t.Errorf("the model did not get the page: %s", e2etest.JSONOf(rs[1]))
	}

	// The host the project's script fetched: the proxy's reason reaches
	// the model with the command's result.
	var reason string
	for _, j := range js {
		if j.Request.Adapter == "proxy" && j.Request.Host == blocked {
			reason = j.Decision.Reason
		}
	}
	if reason == "" {
		t.Fatalf("the proxy never asked about %s:\n%s\nstdout:\n%s", blocked, e2etest.Describe(js), res.Stdout)
	}
	body := string(reqs[3].Body)
	for _, want := range []string{"Sentinel's proxy refused " + blocked + ":443", "--allow-host " + blocked, reason[:min(len(reason), 40)]} {
		if !strings.Contains(body, want) {
			t.Errorf("the model was not told %q; its request after the command:\n%s\nstdout:\n%s", want, body, res.Stdout)
		}
	}
}
