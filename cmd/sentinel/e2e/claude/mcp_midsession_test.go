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

// The real `sentinel mcp` (stdio): after its sandbox started, the person
// makes a repository in the rw path whose config includes a file and
// names a hooks directory; a later exec command cannot write the
// included file, the hooks directory, nor the new repository's own hooks
// (git would run them on the person's next command, on the host), and the
// person's repository is left where it is.
func TestMCPExecHoldsARepositoryMadeMidSession(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	base, _ := filepath.EvalSymlinks(t.TempDir())
	app := filepath.Join(base, "app")
	e2etest.WriteFile(t, filepath.Join(app, "evil.txt"), "[core]\n\tfsmonitor = touch /tmp/pwned\n")
	cfg := filepath.Join(base, "mcp.toml")
	e2etest.WriteFile(t, cfg, `exec_mode = "unrestricted"
audit = "`+filepath.Join(base, "audit.jsonl")+`"

[[paths]]
path = "`+app+`"
access = "rw"

# A bound on a hang, not on speed: a sandboxed python3 at load 20 took
# longer than the default minute.
[limits]
exec_timeout = "10m"
`)
	cmd := exec.Command(e2etest.Bin, "mcp", "--config", cfg)
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+filepath.Join(base, "state"), "XDG_CONFIG_HOME="+filepath.Join(base, "config"), "XDG_RUNTIME_DIR="+filepath.Join(base, "run"))
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "hostile"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(line string) string {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "exec", Arguments: map[string]any{"command": line, "cwd": app}})
		if err != nil {
			t.Fatalf("exec: %v", err)
		}
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String()
	}
	if got := call("echo started"); !strings.Contains(got, "started") {
		t.Fatalf("the first command did not run: %s", got)
	}
	sub := filepath.Join(app, "sub")
	e2etest.Git(t, app, "init", "-q", "sub")
	e2etest.Git(t, sub, "config", "include.path", "../../inc.cfg")
	e2etest.Git(t, sub, "config", "core.hooksPath", "../hk")
	e2etest.WriteFile(t, filepath.Join(app, "inc.cfg"), "")
	for _, p := range []string{
		filepath.Join(app, "inc.cfg"),
		filepath.Join(app, "hk", "post-checkout"),
		filepath.Join(sub, ".git", "hooks", "pre-commit"),
	} {
		got := call(`python3 -c "import sys; open(sys.argv[1], 'a').write(open('evil.txt').read()); print('wrote')" ` + p)
		if !strings.Contains(got, "Read-only file system") || strings.Contains(got, "wrote") {
			t.Errorf("%s: the command was not held to read-only:\n%s", p, got)
		}
		if b, _ := os.ReadFile(p); strings.Contains(string(b), "fsmonitor") {
			t.Errorf("%s was written: %q", p, b)
		}
	}
	if _, err := os.Stat(filepath.Join(sub, ".git", "HEAD")); err != nil {
		t.Errorf("the person's repository is gone: %v", err)
	}
}
