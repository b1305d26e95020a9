package hostile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// A coder that writes files which run code later — in whatever case —
// plus a symlink and a submodule: the run's FINAL_REPORT.md names each one
// as a risk, with its reason, and ordinary files not at all.
func TestFinalReportFlagsEveryFileThatRunsCodeLater(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	script := `set -e
mkdir -p .VSCODE .github/workflows .github/actions/a tests lib .Cargo
echo '{}' > .VSCODE/tasks.json
echo 'on: push' > .github/workflows/x.yml
echo 'runs: {}' > .github/actions/a/action.yml
echo 'all:' > MAKEFILE
echo '{}' > Package.JSON
echo 'obey' > Claude.md
echo 'obey' > AGENTS.md
echo 'import os' > tests/ConfTest.py
echo 'import os' > lib/evil.PTH
echo 'x' > .ENVRC
echo 'x' > .Cargo/config.toml
echo 'FROM x' > Dockerfile
echo 'plain' > ordinary.txt
ln -s /etc/passwd docs-link
mkdir -p vendor/lib && cd vendor/lib && git init -q && git -c user.name=c -c user.email=c@c commit -q --allow-empty -m sub`
	res := e2etest.Sentinel(t, dir, nil, "run", "--plain", "--coder", "command", "write files that run code later", "--", "sh", "-c", script)
	if res.Code != 0 {
		t.Fatalf("exit %d: %s\n%s", res.Code, res.Stderr, res.Stdout)
	}
	m := e2etest.RunMeta(t, dir)
	b, err := os.ReadFile(filepath.Join(dir, ".sentinel", "runs", m[0].ID, "FINAL_REPORT.md"))
	if err != nil {
		t.Fatal(err)
	}
	report := string(b)
	_, risks, _ := strings.Cut(report, "## Remaining risks")
	for path, why := range map[string]string{
		".VSCODE/tasks.json":           "editor tasks",
		".github/workflows/x.yml":      "CI workflow",
		".github/actions/a/action.yml": "CI action",
		"MAKEFILE":                     "make runs it",
		"Package.JSON":                 "npm runs its scripts",
		"Claude.md":                    "agent instructions",
		"AGENTS.md":                    "agent instructions",
		"tests/ConfTest.py":            "pytest",
		"lib/evil.PTH":                 "Python runs its import lines",
		".ENVRC":                       "direnv",
		".Cargo/config.toml":           "cargo settings",
		"Dockerfile":                   "docker build",
		"docs-link":                    "new symlink",
	} {
		if !strings.Contains(risks, "`"+path+"` runs code later: "+why) {
			t.Errorf("the report's risks do not name %s (%s):\n%s", path, why, risks)
		}
	}
	// A nested repository never lands (a patch never carries one); the
	// report says the coder made it.
	if !strings.Contains(risks, "`vendor/lib/` was left out of the patch") {
		t.Errorf("the report's risks do not name the nested repository vendor/lib:\n%s", risks)
	}
	if strings.Contains(risks, "ordinary.txt") {
		t.Errorf("an ordinary file is named a risk:\n%s", risks)
	}
}
