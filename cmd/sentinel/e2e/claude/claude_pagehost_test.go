package claude

import (
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
	"github.com/sentinelhq/sentinel/policy"
)

// pageHost is a local HTTPS server standing for a documentation host, and
// the environment that makes the sandboxed Claude Code trust its
// certificate: NODE_EXTRA_CA_CERTS names a file in a directory the user
// config makes readable (not under /tmp, which is the sandbox's own).
func pageHost(t *testing.T, body string) (srv *httptest.Server, hits *atomic.Int32, env []string) {
	t.Helper()
	hits = &atomic.Int32{}
	srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<html><body><h1>Guide</h1><p>%s</p></body></html>", body)
	}))
	t.Cleanup(srv.Close)
	caDir, err := os.MkdirTemp("/var/tmp", "sentinel-ca-")
	if err != nil {
		t.Skipf("no directory outside /tmp for the test CA: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(caDir) })
	ca := filepath.Join(caDir, "ca.pem")
	e2etest.WriteFile(t, ca, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})))
	cfg := t.TempDir()
	e2etest.WriteFile(t, filepath.Join(cfg, "sentinel", "config.toml"), fmt.Sprintf("[sandbox]\nreadable = [%q]\n", caDir))
	return srv, hits, []string{"NODE_EXTRA_CA_CERTS=" + ca, "XDG_CONFIG_HOME=" + cfg}
}

// TestRealClaudeWebFetchOfAnAllowedHostWorks: a host the person let through
// with --allow-host really works for Claude Code's WebFetch, end to end:
// the policy does not ask about it (it agrees with the proxy), Claude Code's
// own domain preflight to api.anthropic.com is skipped (Sentinel's host
// policy is the gate; that host is not reachable through a gateway
// setup), and the page reaches the model.
func TestRealClaudeWebFetchOfAnAllowedHostWorks(t *testing.T) {
	t.Parallel()
	e2etest.NeedClaude(t)
	dir := e2etest.ScratchRepo(t)
	const secret = "GUIDE-TEXT-7741"
	srv, hits, env := pageHost(t, secret)
	host := strings.TrimPrefix(srv.URL, "https://")
	model := e2etest.StartModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Text("Reading the docs."),
			fakemodel.ToolUse("WebFetch", map[string]any{"url": srv.URL + "/guide", "prompt": "Quote the guide."})),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("Read it.")}},
	})
	model.SetSideReply("The guide says: " + secret)
	res := e2etest.Sentinel(t, dir, append(e2etest.ClaudeEnv(t, model), env...), "run", "--coder", "claude", "--headless", "--plain",
		"--allow-host", e2etest.ModelHost(model), "--allow-host", host, "read the guide")
	id := e2etest.LastRun(t, dir)
	js := e2etest.ApprovalsOf(t, e2etest.RunEvents(t, dir, id))
	if hits.Load() == 0 {
		t.Fatalf("the page host was never reached (exit %d)\napprovals:\n%s\ntool results: %s\nstdout:\n%s\nstderr: %s",
			res.Code, e2etest.Describe(js), e2etest.JSONOf(e2etest.ToolResults(model)), res.Stdout, res.Stderr)
	}
	for _, j := range js {
		if j.Request.Kind == policy.KindNet && !j.Decision.Allowed() {
			t.Errorf("a net request was refused: %s", e2etest.Describe([]approvals.Journaled{j}))
		}
	}
	rs := e2etest.ToolResults(model)
	if len(rs) != 1 || rs[0].IsError || !strings.Contains(rs[0].Content, secret) {
		t.Errorf("the model did not get the page: %s", e2etest.JSONOf(rs))
	}
}

// TestRealClaudeIsToldWhyTheProxyRefusedAHost: a project script the policy
// lets run fetches a host nobody allowed; the proxy refuses it (no one to
// ask), and the reason reaches the model with the command's result — the
// tool itself saw only a failed CONNECT.
func TestRealClaudeIsToldWhyTheProxyRefusedAHost(t *testing.T) {
	t.Parallel()
	e2etest.NeedClaude(t)
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed")
	}
	dir := e2etest.ScratchRepo(t)
	const host = "blocked-docs.example"
	p := filepath.Join(dir, "scripts", "fetch.sh")
	e2etest.WriteFile(t, p, "#!/bin/sh\ncurl -sS --max-time 30 -o /dev/null https://"+host+"/guide\necho fetch finished\n")
	if err := os.Chmod(p, 0o755); err != nil {
		t.Fatal(err)
	}
	e2etest.Git(t, dir, "add", "scripts/fetch.sh")
	e2etest.Git(t, dir, "commit", "-qm", "add fetch.sh")
	model := e2etest.StartModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Text("Fetching."), fakemodel.Bash("./scripts/fetch.sh")),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("Done.")}},
	})
	res := e2etest.Sentinel(t, dir, e2etest.ClaudeEnv(t, model), "run", "--coder", "claude", "--headless", "--plain", "--allow-host", e2etest.ModelHost(model), "fetch the guide")
	reqs := model.Requests()
	if len(reqs) < 2 {
		t.Fatalf("the model got %d requests, want 2 (exit %d)\nstdout:\n%s\nstderr: %s", len(reqs), res.Code, res.Stdout, res.Stderr)
	}
	js := e2etest.ApprovalsOf(t, e2etest.RunEvents(t, dir, e2etest.LastRun(t, dir)))
	var reason string
	for _, j := range js {
		if j.Request.Adapter == "proxy" && j.Request.Host == host {
			reason = j.Decision.Reason
		}
	}
	if reason == "" {
		t.Fatalf("the proxy never asked about %s:\n%s\nstdout:\n%s", host, e2etest.Describe(js), res.Stdout)
	}
	body := string(reqs[1].Body)
	for _, want := range []string{"Sentinel's proxy refused " + host + ":443", "--allow-host " + host, reason[:min(len(reason), 40)]} {
		if !strings.Contains(body, want) {
			t.Errorf("the model was not told %q; its request after the command:\n%s\nstdout:\n%s", want, body, res.Stdout)
		}
	}
}
