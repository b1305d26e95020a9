package supervisor

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/fakeresponses"
)

// codexCLI finds the real codex binary or skips (fails under CI=true).
func codexCLI(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("codex")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("codex is not installed (CI=true): npm install -g @openai/codex@0.171.0")
		}
		t.Skip("codex is not installed; skipping the codex-cli backend test")
	}
	return path
}

// codexEnv is a CODEX_HOME whose config.toml sends codex to baseURL (a
// Responses API) without retries, and the environment that selects it. The
// config also names an MCP server that leaves a mark when started; it
// returns the mark's path. (CODEX_HOME under /tmp only costs a warning here:
// a judge turn runs no commands, so codex needs no sandbox helpers.)
func codexEnv(t *testing.T, baseURL string) (env []string, mcpMark string) {
	t.Helper()
	home := t.TempDir()
	codexHome := filepath.Join(home, ".codex")
	mcpMark = filepath.Join(home, "mcp-started")
	config := `model_provider = "fake"
check_for_update_on_startup = false

[analytics]
enabled = false

[feedback]
enabled = false

[model_providers.fake]
name = "Fake"
base_url = "` + baseURL + `"
env_key = "SENTINEL_TEST_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0

[mcp_servers.marker]
command = "/bin/sh"
args = ["-c", "echo started > ` + mcpMark + `"]
`
	if err := os.MkdirAll(codexHome, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	return []string{"HOME=" + home, "CODEX_HOME=" + codexHome, "SENTINEL_TEST_KEY=sk-test",
		"HTTP_PROXY=", "HTTPS_PROXY=", "http_proxy=", "https_proxy=", "ALL_PROXY=", "all_proxy="}, mcpMark
}

// judgeModel is a model codex knows, so it offers that model's usual tools.
const judgeModel = "gpt-5.5"

func verdictText(v Verdict) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// requestText is everything a request told the model, instructions and
// every message.
func requestText(r *fakeresponses.Request) string {
	parts := []string{r.Instructions}
	for _, it := range r.Input {
		parts = append(parts, it.Text)
	}
	return strings.Join(parts, "\n")
}

func TestCodexCLIBackendAgainstAFakeModel(t *testing.T) {
	path := codexCLI(t)
	cases := []struct {
		name   string
		script fakeresponses.Script
		status int    // the server answers every request with this HTTP status instead
		want   string // "allow", or a piece of the deny reason
	}{
		{name: "allow", script: fakeresponses.Script{fakeresponses.Reply(fakeresponses.Text(verdictText(Verdict{"allow", "tests are the task", "low"})))},
			want: "allow"},
		{name: "deny", script: fakeresponses.Script{fakeresponses.Reply(fakeresponses.Text(verdictText(Verdict{"deny", "off task", "low"})))},
			want: "off task"},
		{name: "garbage", script: fakeresponses.Script{fakeresponses.Reply(fakeresponses.Text("sure, go ahead!"))},
			want: "could not judge"},
		{name: "empty text", script: fakeresponses.Script{fakeresponses.Reply(fakeresponses.Text(""))},
			want: "codex-cli: empty answer"},
		{name: "no answer", script: fakeresponses.Script{fakeresponses.Reply()},
			want: "codex-cli: empty answer"},
		{name: "server error", status: http.StatusInternalServerError,
			want: "codex-cli: the turn failed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var baseURL string
			var srv *fakeresponses.Server
			var failed atomic.Int32
			if c.status != 0 {
				hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					failed.Add(1)
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(c.status)
					w.Write([]byte(`{"error":{"type":"server_error","message":"fake outage"}}`))
				}))
				defer hs.Close()
				baseURL = hs.URL + "/v1"
			} else {
				var err error
				if srv, err = fakeresponses.Start(c.script); err != nil {
					t.Fatal(err)
				}
				defer srv.Close()
				srv.IsMain = func(*fakeresponses.Request) bool { return true }
				baseURL = srv.BaseURL()
			}
			env, mcpMark := codexEnv(t, baseURL)
			b, err := New(Config{Backend: KindCodexCLI, Command: path, Model: judgeModel, Env: env})
			if err != nil {
				t.Fatal(err)
			}
			read := judgeGoTest(t, b, c.want)
			if _, err := os.Stat(mcpMark); err == nil {
				t.Error("codex started the MCP server from the person's config for a judge turn")
			}
			if c.status != 0 {
				if failed.Load() == 0 {
					t.Fatal("codex never reached the failing server")
				}
				return
			}
			reqs := srv.Requests()
			if len(reqs) == 0 {
				t.Fatal("codex sent the model nothing")
			}
			first := reqs[0]
			sent := requestText(first)
			if !strings.Contains(sent, "Judge the request against the TASK") || !strings.Contains(sent, "go test ./...") {
				t.Fatalf("codex did not send the judge's prompt to the model:\n%s", sent)
			}
			if strings.Contains(sent, "You are Codex") {
				t.Error("Codex's own system prompt reached the judge model")
			}
			if first.HasTool("exec_command") || first.HasTool("shell") {
				t.Errorf("the judge model was offered a shell: %+v", first.Tools)
			}
			if !strings.Contains(string(first.Body), `"json_schema"`) || !strings.Contains(string(first.Body), `"decision"`) {
				t.Error("the request does not hold the answer to the judge's schema")
			}
			if c.want == "allow" && !journaledJudgeTokens(read()) {
				t.Error("the journaled turn has no token count")
			}
		})
	}
}

func TestCodexCLIMissingBinary(t *testing.T) {
	_, err := New(Config{Backend: KindCodexCLI, Command: "no-such-codex-binary"})
	want := "supervisor codex-cli: no-such-codex-binary not found on PATH: install Codex (npm i -g @openai/codex) or pick another --supervisor"
	if err == nil || err.Error() != want {
		t.Fatalf("New = %v, want %q", err, want)
	}
}

// A judge model that tries to write a file or run a command gets a refusal
// back from codex, and nothing happens.
func TestCodexCLIJudgeCannotWriteOrRunCommands(t *testing.T) {
	path := codexCLI(t)
	dir := t.TempDir()
	patched, touched := filepath.Join(dir, "patched"), filepath.Join(dir, "touched")
	srv, err := fakeresponses.Start(fakeresponses.Script{
		fakeresponses.Reply(fakeresponses.CustomToolCall("apply_patch", "*** Begin Patch\n*** Add File: "+patched+"\n+pwned\n*** End Patch\n")),
		fakeresponses.Reply(fakeresponses.ExecCommand("touch "+touched, dir)),
		fakeresponses.Reply(fakeresponses.Text(verdictText(Verdict{"deny", "done trying", "low"}))),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	srv.IsMain = func(*fakeresponses.Request) bool { return true }
	env, _ := codexEnv(t, srv.BaseURL())
	b, err := New(Config{Backend: KindCodexCLI, Command: path, Model: judgeModel, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := b.Complete(ctx, Turn{Role: "judge", System: "Judge.", User: "go test ./...", Schema: judgeSchema})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := ParseVerdict(r.Text); err != nil || v.Reason != "done trying" {
		t.Fatalf("answer %q (%v), want the scripted deny", r.Text, err)
	}
	for _, p := range []string{patched, touched} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("the judge turn created %s", p)
		}
	}
	var outputs []string
	for _, req := range srv.Requests() {
		for _, o := range req.LastOutputs() {
			outputs = append(outputs, o.Text)
		}
	}
	if len(outputs) != 2 || !strings.Contains(outputs[0], "rejected") || !strings.Contains(outputs[1], "unsupported") {
		t.Fatalf("codex answered the tool calls with %q, want a rejected patch and an unsupported command", outputs)
	}
}

func TestReadCodexEvents(t *testing.T) {
	answer := `{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"{\"decision\":\"deny\"}"}}`
	done := `{"type":"turn.completed","usage":{"input_tokens":12,"cached_input_tokens":0,"output_tokens":7}}`
	exit1 := errors.New("exit status 1")
	cases := []struct {
		name    string
		out     string
		runErr  error
		stderr  string
		want    string // the answer, or a piece of the error
		wantErr bool
	}{
		{name: "answer", out: `{"type":"thread.started"}` + "\n" + answer + "\n" + done, want: `{"decision":"deny"}`},
		{name: "retries, then an answer", out: `{"type":"error","message":"Reconnecting... 1/5"}` + "\n" + answer + "\n" + done, want: `{"decision":"deny"}`},
		{name: "a warning item", out: `{"type":"item.completed","item":{"type":"error","message":"ignoring a setting"}}` + "\n" + answer + "\n" + done, want: `{"decision":"deny"}`},
		{name: "failed turn", out: `{"type":"error","message":"boom"}` + "\n" + `{"type":"turn.failed","error":{"message":"high demand"}}`, runErr: exit1,
			want: "the turn failed: high demand", wantErr: true},
		{name: "a command ran", out: `{"type":"item.completed","item":{"type":"command_execution","command":"ls"}}` + "\n" + answer + "\n" + done,
			want: "used a tool (command_execution)", wantErr: true},
		{name: "no completed turn", out: answer, want: "did not complete", wantErr: true},
		{name: "empty answer", out: done, want: "empty answer", wantErr: true},
		{name: "not JSON", out: "Welcome to Codex!\n" + answer, want: "not the expected JSON lines", wantErr: true},
		{name: "codex refused to start", runErr: exit1, stderr: "WARNING: x\nError: Unknown feature flag: shell_tool\n\nStack backtrace:\n  0: <unknown>",
			want: "exit status 1: Error: Unknown feature flag: shell_tool", wantErr: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := readCodexEvents([]byte(c.out), c.runErr, c.stderr)
			if c.wantErr {
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("got %q, %v; want an error saying %q", r.Text, err, c.want)
				}
				return
			}
			if err != nil || r.Text != c.want || r.Usage != (Usage{12, 7}) {
				t.Fatalf("got %q %+v, %v; want %q with 12/7 tokens", r.Text, r.Usage, err, c.want)
			}
		})
	}
}
