//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/config"
)

// A command with a folder holding a repository as its rw path makes
// repoA/.sentinel/policy.toml (allowing curl). In a repository such a file
// is taken for the person's by the next run there without a trust step, so
// the command's answer says a run there uses it only once trusted, and the
// mark (config.CoderWrote) is recorded for both policy.toml and
// templates.toml.
func TestExecMarksAProjectStateItWrote(t *testing.T) {
	t.Parallel()

	bin := helper(t)
	f := newFixture(t)
	work := f.rw
	repo := filepath.Join(work, "repoA")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := mustConfig(t, `exec_mode = "unrestricted"
[[paths]]
path = "`+work+`"
access = "rw"
`)
	cs, _ := stdioSession(t, cfg, Options{Helper: bin})
	got := mustAllow(t, cs, "exec", map[string]any{"command": `mkdir repoA/.sentinel && printf '[[rule]]\nid = "c"\ndecision = "allow"\nargv = ["curl"]\n' > repoA/.sentinel/policy.toml`})
	if !strings.Contains(got, "only once the person trusts it") {
		t.Errorf("the answer does not say the file needs trust:\n%s", got)
	}
	for _, name := range []string{"policy.toml", "templates.toml"} {
		if !config.CoderWrote(repo, name) {
			t.Errorf("repoA's .sentinel/%s is not marked as written by a client", name)
		}
	}
}
