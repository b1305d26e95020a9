package runs

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// A person's brand-new Go repository (go.mod, no package yet): the run's
// detected checks (go test, go vet) have nothing to check, and the run
// lands, saying so, instead of ending failed (recovery) on "matched no
// packages".
func TestANewGoModuleWithNoPackageLands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e2etest.Git(t, dir, "init", "-q")
	e2etest.WriteFile(t, filepath.Join(dir, "go.mod"), "module example.com/fresh\n\ngo 1.21\n")
	e2etest.Git(t, dir, "add", "-A")
	e2etest.Git(t, dir, "commit", "-qm", "init")
	// The machine's shared test key and Go build cache seed, never the
	// developer's own cache (this test is not about the seed).
	res := e2etest.Sentinel(t, dir, e2etest.SharedSeedEnv(t), "run", "--plain", "--coder", "command", "readme", "--", "sh", "-c", "echo hello > README.md")
	if res.Code != 0 {
		t.Fatalf("exit %d, stderr %q\n%s", res.Code, res.Stderr, res.Stdout)
	}
	if !strings.Contains(res.Stdout, "go vet ./... → skipped: no Go packages yet") {
		t.Fatalf("the skipped check is not said:\n%s", res.Stdout)
	}
}
