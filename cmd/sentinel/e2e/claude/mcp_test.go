//go:build unix

package claude

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/mcpserver"
)

// mcpFixture is a server config for the real binary: an rw app dir, an r
// log dir, a secret outside both, and a symlink from the app dir to it.
type mcpFixture struct {
	dir, rw, ro, secret, config, audit string
	env                                []string
}

func newMCPFixture(t *testing.T) mcpFixture {
	t.Helper()
	base, _ := filepath.EvalSymlinks(t.TempDir())
	f := mcpFixture{dir: base, rw: filepath.Join(base, "app"), ro: filepath.Join(base, "logs"), secret: filepath.Join(base, "outside", "secret.txt"),
		config: filepath.Join(base, "mcp.toml"), audit: filepath.Join(base, "audit", "mcp.jsonl")}
	e2etest.WriteFile(t, filepath.Join(f.rw, "notes.txt"), "hello world\n")
	e2etest.WriteFile(t, filepath.Join(f.rw, "settings.json"), `{"debug": false}`+"\n")
	e2etest.WriteFile(t, filepath.Join(f.ro, "app.log"), "boot ok\n")
	e2etest.WriteFile(t, f.secret, "TOPSECRET\n")
	if err := os.Symlink(filepath.Dir(f.secret), filepath.Join(f.rw, "out")); err != nil {
		t.Fatal(err)
	}
	e2etest.WriteFile(t, f.config, `allowed_commands = ["ls", "git", "echo"]
audit = "`+f.audit+`"

[[paths]]
path = "`+f.rw+`"
access = "rw"

[[paths]]
path = "`+f.ro+`"
access = "r"
`)
	f.env = []string{"XDG_STATE_HOME=" + filepath.Join(base, "state"), "XDG_CONFIG_HOME=" + filepath.Join(base, "config"), "HOME=" + filepath.Join(base, "home")}
	return f
}

// An MCP client session over stdio with the real binary: what an
// independent check does.
func TestMCPStdioSession(t *testing.T) {
	t.Parallel()
	f := newMCPFixture(t)
	cmd := exec.Command(e2etest.Bin, "mcp", "--config", f.config)
	cmd.Env = append(os.Environ(), f.env...)
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "check"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	call := func(tool string, args map[string]any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String(), res.IsError
	}
	want := func(tool string, args map[string]any, refused bool, has string) {
		t.Helper()
		text, isErr := call(tool, args)
		if isErr != refused || !strings.Contains(text, has) {
			t.Errorf("%s %v: error=%v %q, want error=%v and %q", tool, args, isErr, text, refused, has)
		}
	}
	want("exec", map[string]any{"command": "ls && echo done"}, false, "notes.txt")
	want("exec", map[string]any{"command": "ls | grep notes | wc -l"}, false, "1\n[exit 0]")
	want("exec", map[string]any{"command": "ls; lsof"}, true, "[not-allowed]") // one part off the allowlist (rm -rf . is now the policy's to deny)
	want("exec", map[string]any{"command": "ls | sh"}, true, "[policy-deny]")  // the policy refuses it before the allowlist reads the pipe
	want("exec", map[string]any{"command": "lsof"}, true, "[not-allowed]")
	want("exec", map[string]any{"command": "ls\nlsof"}, true, "[multi-line]")
	want("read", map[string]any{"path": f.rw + "/notes.txt"}, false, "hello world")
	want("read", map[string]any{"path": f.rw + "/out/secret.txt"}, true, "[path-not-allowed]")
	want("read", map[string]any{"path": f.rw + "/../outside/secret.txt"}, true, "[path-not-allowed]")
	want("edit", map[string]any{"path": f.ro + "/app.log", "content": "x"}, true, "[read-only-path]")
	want("edit", map[string]any{"path": f.rw + "/settings.json", "old_string": "false", "new_string": "true"}, false, "backup of the previous content: ")
	want("edit", map[string]any{"path": f.rw + "/settings.json", "content": "{"}, true, "[validation]")
	want("capabilities", nil, false, "paths: 1 rw, 1 r")
	if _, err := os.Stat(f.rw); err != nil {
		t.Fatal("rm ran")
	}
	if b, _ := os.ReadFile(f.rw + "/settings.json"); string(b) != `{"debug": true}`+"\n" {
		t.Fatalf("settings.json = %q", b)
	}
	cs.Close()

	evs, err := journal.ReadFile(f.audit)
	if err != nil {
		t.Fatal(err)
	}
	var calls []mcpserver.Call
	for _, ev := range evs {
		if c, ok := mcpserver.AsCall(ev); ok {
			calls = append(calls, c)
		}
	}
	if len(calls) != 13 {
		t.Fatalf("the audit holds %d calls, want 13", len(calls))
	}
	res := e2etest.Sentinel(t, f.dir, f.env, "show", f.audit)
	if res.Code != 0 || !strings.Contains(res.Stdout, "exec deny [policy-deny]") || !strings.Contains(res.Stdout, "edit allow") {
		t.Fatalf("sentinel show: %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
}

func TestMCPCommandRefusesBadSetup(t *testing.T) {
	t.Parallel()
	f := newMCPFixture(t)
	if res := e2etest.Sentinel(t, f.dir, f.env, "mcp", "--config", f.config, "--http", "0.0.0.0:0"); res.Code != 2 || !strings.Contains(res.Stderr, "without a bearer token") || !strings.Contains(res.Stderr, "TLS") {
		t.Fatalf("non-loopback without a token: %d %s", res.Code, res.Stderr)
	}
	if res := e2etest.Sentinel(t, f.dir, f.env, "mcp"); res.Code != 2 || !strings.Contains(res.Stderr, "--config FILE is required") {
		t.Fatalf("no config: %d %s", res.Code, res.Stderr)
	}
	e2etest.WriteFile(t, f.config, "exec_mode = \"yolo\"\n")
	if res := e2etest.Sentinel(t, f.dir, f.env, "mcp", "--config", f.config); res.Code == 0 || !strings.Contains(res.Stderr, f.config+":1:") {
		t.Fatalf("bad config: %d %s", res.Code, res.Stderr)
	}
}

// `sentinel mcp --http` with no token in its config makes one, says how
// clients pass it, and serves nobody without it.
func TestMCPHTTPMakesATokenAndServesNoOneWithout(t *testing.T) {
	t.Parallel()
	f := newMCPFixture(t)
	cmd := exec.Command(e2etest.Bin, "mcp", "--config", f.config, "--http", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), f.env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	var token, url string
	sc := bufio.NewScanner(stderr)
	for url == "" && sc.Scan() {
		line := sc.Text()
		if _, tok, ok := strings.Cut(line, "Authorization: Bearer "); ok && token == "" {
			token = strings.TrimSpace(tok)
		}
		if _, u, ok := strings.Cut(line, "(clients connect to "); ok {
			url = strings.TrimSuffix(strings.TrimSpace(u), ")")
		}
	}
	if len(token) != 64 || url == "" {
		t.Fatalf("stderr did not give a token and an address: token %q url %q (%v)", token, url, sc.Err())
	}
	go io.Copy(io.Discard, stderr)
	post := func(authz string) int {
		req, _ := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`))
		if authz != "" {
			req.Header.Set("Authorization", authz)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := post(""); code != http.StatusUnauthorized {
		t.Errorf("no token: %d, want 401", code)
	}
	if code := post("Bearer " + strings.Repeat("0", 64)); code != http.StatusUnauthorized {
		t.Errorf("a wrong token: %d, want 401", code)
	}
	if code := post("Bearer " + token); code != http.StatusOK {
		t.Errorf("the printed token: %d, want 200", code)
	}
}
