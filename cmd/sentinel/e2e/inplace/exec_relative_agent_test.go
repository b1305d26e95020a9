package inplace

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// Issue 31 point 8, for a known agent: a program named by a relative path
// that Sentinel takes for an agent (./bin/claude, bin/codex, node
// node_modules/@anthropic-ai/claude-code/cli.js) runs, on both backends;
// the agent's program directory used to reach the sandbox as given and be
// refused ("readable path "bin" is not absolute"). The stand-in prints a
// version, as a real agent's --version does.
func TestExecRelativeAgentProgram(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	e2etest.WriteFile(t, filepath.Join(dir, "bin", "claude"), "#!/bin/sh\necho \"2.1.332 (Claude Code) relative-ok\"\n")
	e2etest.WriteFile(t, filepath.Join(dir, "bin", "codex"), "#!/bin/sh\necho \"codex-cli 0.171.0 relative-ok\"\n")
	for _, f := range []string{"claude", "codex"} {
		if err := os.Chmod(filepath.Join(dir, "bin", f), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir(), "HOME="+t.TempDir(), "NO_COLOR=1")
	for _, mode := range []string{"bwrap", "ns"} {
		for _, argv := range [][]string{{"./bin/claude", "--version"}, {"bin/codex", "--version"}} {
			cmd := exec.Command(e2etest.Bin, append([]string{"exec", "--plain", "--sandbox", mode, "--"}, argv...)...)
			cmd.Dir, cmd.Env = dir, env
			b, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(b), "relative-ok") {
				t.Errorf("%s: sentinel exec -- %s: %v\n%s", mode, strings.Join(argv, " "), err, b)
			}
		}
	}
}
