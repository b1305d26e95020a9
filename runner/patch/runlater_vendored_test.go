package patch

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sentinelhq/sentinel/policy"
)

// TestVendoredCIIsNotThisProjectsCI (#37 F4): a CI file inside a vendored
// tree is another project's — the write check does not ask for it (it is a
// plain workspace write) and the review does not flag it — while the
// project's own CI files stay person-only and flagged, and a vendored file
// of another run-unasked kind (a git hook, .envrc) stays both. The write
// check and the review answer alike for every path.
func TestVendoredCIIsNotThisProjectsCI(t *testing.T) {
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "node_modules"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := policy.Context{Workspace: ws, Cwd: ws, Home: t.TempDir()}
	e := policy.Default()
	for p, personOnly := range map[string]bool{
		"node_modules/left-pad/.travis.yml":              false,
		"web/node_modules/x/.gitlab-ci.yml":              false,
		"vendor/github.com/a/b/.circleci/config.yml":     false,
		"vendor/github.com/x/y/.github/workflows/ci.yml": false,
		"third_party/zlib/Jenkinsfile":                   false,
		"Node_Modules/x/.drone.yml":                      false,
		".travis.yml":                                    true,
		".github/workflows/ci.yml":                       true,
		"sub/.gitlab-ci.yml":                             true,
		"vendor.travis.yml/.travis.yml":                  true,
		"node_modules/x/.husky/pre-commit":               true,
		"node_modules/x/.envrc":                          true,
		"node_modules/x/.gitlab-ci/.bashrc":              true,
	} {
		v := e.Check(policy.Query{Kind: policy.KindWrite, Path: p, Context: ctx})
		if v.NeverDelegable != personOnly || (v.Decision == policy.Ask) != personOnly {
			t.Errorf("write %s: %s (person-only %v) by %s: %s; want person-only %v", p, v.Decision, v.NeverDelegable, v.Rule, v.Reason, personOnly)
		}
		if flagged := RunsCodeLater(p); flagged != personOnly {
			t.Errorf("review flags %s: %v, want %v (as the write check)", p, flagged, personOnly)
		}
	}
}
