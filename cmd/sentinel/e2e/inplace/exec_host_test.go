package inplace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/runner/claude"
)

// A project-local `claude` started through exec runs only inside the
// sandbox: nothing of it ran on the host before (no --version probe), so
// its marker is not on the host (31.3). What it keeps as Claude Code's
// session reaches the person's ~/.claude after the run, for the next
// `claude --continue`, while its settings.json stays read-only (31.7).
func TestExecRunsNoAgentOnTheHostAndKeepsItsHistory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home := t.TempDir()
	marker := filepath.Join(t.TempDir(), "ran-on-host")
	agent := filepath.Join(dir, "node_modules", ".bin", "claude")
	e2etest.WriteFile(t, agent, `#!/bin/sh
touch '`+marker+`'
key=$(printf %s "$PWD" | tr -c 'a-zA-Z0-9' '-')
mkdir -p "$CLAUDE_CONFIG_DIR/projects/$key" && echo '{"sessionId":"e2e"}' > "$CLAUDE_CONFIG_DIR/projects/$key/e2e.jsonl"
if echo '{"hooks":{}}' > "$CLAUDE_CONFIG_DIR/settings.json" 2>/dev/null; then echo writable > settings-result; else echo read-only > settings-result; fi
`)
	if err := os.Chmod(agent, 0o755); err != nil {
		t.Fatal(err)
	}
	res := e2etest.Sentinel(t, dir, []string{"HOME=" + home, "CLAUDE_CONFIG_DIR="}, "exec", "--plain", "--", agent)
	if res.Code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the project's claude ran on the host")
	}
	if b, err := os.ReadFile(filepath.Join(dir, "settings-result")); err != nil || strings.TrimSpace(string(b)) != "read-only" {
		t.Errorf("the agent's settings.json inside the run: %q %v", b, err)
	}
	kept := filepath.Join(home, ".claude", "projects", claude.ProjectKey(dir), "e2e.jsonl")
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("the run's session was not kept in ~/.claude: %v\n%s", err, res.Stdout)
	}
}

// A shim that finds a `claude` of the project's first on PATH runs it only
// inside the sandbox: nothing of it runs on the host first (31.3).
func TestShimRunsNoAgentOnTheHost(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	marker := filepath.Join(t.TempDir(), "ran-on-host")
	bin := filepath.Join(dir, "node_modules", ".bin")
	e2etest.WriteFile(t, filepath.Join(bin, "claude"), "#!/bin/sh\ntouch '"+marker+"'\necho ran > ran-inside\n")
	if err := os.Chmod(filepath.Join(bin, "claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	res := e2etest.Sentinel(t, dir, []string{"HOME=" + t.TempDir(), "PATH=" + bin + ":" + os.Getenv("PATH")}, "shim", "--dir", t.TempDir(), "claude")
	if _, err := os.Stat(marker); err == nil {
		t.Error("the project's claude ran on the host")
	}
	if _, err := os.Stat(filepath.Join(dir, "ran-inside")); err != nil {
		t.Errorf("the shim did not run the project's claude in the sandbox (exit %d): %v\n%s", res.Code, err, res.Stderr)
	}
}
