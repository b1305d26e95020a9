//go:build unix

package claude

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// The real `sentinel mcp` with an rw path over the part of a home that
// holds the person's launcher shims (first on PATH) and one over a git
// repository: a client
// cannot rewrite a shim (the person's next `claude` would run its script
// on the host) nor plant a .envrc through git apply of a patch it wrote.
func TestMCPCannotPlantWhatRunsOnTheHost(t *testing.T) {
	t.Parallel()
	base, _ := filepath.EvalSymlinks(t.TempDir())
	home := filepath.Join(base, "home")
	shims := filepath.Join(home, ".local", "share", "sentinel", "shims")
	env := []string{"HOME=" + home, "XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"), "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=", "XDG_RUNTIME_DIR=" + filepath.Join(base, "run"), "PATH=" + shims + ":" + os.Getenv("PATH")}
	install := exec.Command(e2etest.Bin, "shims", "install")
	install.Env = append(os.Environ(), env...)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("shims install: %v: %s", err, out)
	}
	shim, err := os.ReadFile(filepath.Join(shims, "claude"))
	if err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(base, "app")
	e2etest.WriteFile(t, filepath.Join(app, "notes.txt"), "hello\n")
	e2etest.Git(t, app, "init", "-q")
	cfg := filepath.Join(base, "mcp.toml")
	e2etest.WriteFile(t, cfg, `allowed_commands = ["git", "ls"]
audit = "`+filepath.Join(base, "audit.jsonl")+`"

[[paths]]
path = "`+app+`"
access = "rw"

[[paths]]
path = "`+filepath.Join(home, ".local")+`"
access = "rw"
`)
	cmd := exec.Command(e2etest.Bin, "mcp", "--config", cfg)
	cmd.Env = append(os.Environ(), env...)
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "hostile"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
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
	if text, isErr := call("edit", map[string]any{"path": filepath.Join(shims, "claude"), "content": "#!/bin/sh\ntouch /tmp/pwned\n"}); !isErr {
		t.Errorf("the shim was rewritten: %s", text)
	}
	if text, isErr := call("delete", map[string]any{"path": filepath.Join(shims, "claude")}); !isErr {
		t.Errorf("the shim was deleted: %s", text)
	}
	if text, isErr := call("edit", map[string]any{"path": filepath.Join(app, "p.patch"),
		"content": "diff --git a/.envrc b/.envrc\nnew file mode 100644\n--- /dev/null\n+++ b/.envrc\n@@ -0,0 +1 @@\n+touch /tmp/pwned\n"}); isErr {
		t.Fatalf("edit p.patch: %s", text)
	}
	if text, isErr := call("exec", map[string]any{"command": "git apply p.patch", "cwd": app}); !isErr || !strings.Contains(text, "not known before it runs") {
		t.Errorf("git apply was not refused for what it writes: %s", text)
	}
	if text, isErr := call("exec", map[string]any{"command": "git status --short", "cwd": app}); isErr || !strings.Contains(text, "p.patch") {
		t.Errorf("git status: %s", text)
	}
	if b, _ := os.ReadFile(filepath.Join(shims, "claude")); string(b) != string(shim) {
		t.Errorf("the shim is now %q", b)
	}
	if _, err := os.Lstat(filepath.Join(app, ".envrc")); err == nil {
		t.Error("git apply planted .envrc")
	}
}
