package runs

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// TestARunKeptWithApplyNoneIsNotListedLanded: --apply none puts nothing in
// the repository, so the run's end line and `sentinel runs` say "kept", not
// "landed" (the record never contradicts the repository); once review lands
// it on a branch, runs says landed and names the branch.
func TestARunKeptWithApplyNoneIsNotListedLanded(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	res := e2etest.Sentinel(t, dir, nil, "run", "--plain", "--sandbox", "off", "--coder", "command", "--apply", "none",
		"--verify", "true", "edit a.txt", "--", "sh", "-c", "echo changed > a.txt")
	if res.Code != 0 {
		t.Fatalf("run --apply none: exit %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	id := e2etest.LastRun(t, dir)
	if b := e2etest.Git(t, dir, "branch", "--list", "sentinel/*"); b != "" {
		t.Fatalf("--apply none made a branch: %s", b)
	}
	runs := e2etest.Sentinel(t, dir, nil, "runs")
	row := rowOf(t, runs.Stdout, id)
	if !strings.Contains(row, "\tkept\t") || strings.Contains(row, "landed") {
		t.Fatalf("runs lists the kept run as:\n%s", row)
	}
	if !strings.Contains(res.Stdout+res.Stderr, "run "+id+": kept") {
		t.Fatalf("the run's end line does not say kept:\n%s\n%s", res.Stdout, res.Stderr)
	}
	if r := e2etest.Sentinel(t, dir, nil, "review", id, "--approve"); r.Code != 0 {
		t.Fatalf("review --approve: exit %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	if row := rowOf(t, e2etest.Sentinel(t, dir, nil, "runs").Stdout, id); !strings.Contains(row, "landed → sentinel/"+id) {
		t.Fatalf("runs after the review lands it:\n%s", row)
	}
}

// rowOf is the line of `sentinel runs` output that lists run id.
func rowOf(t *testing.T, out, id string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, id+"\t") {
			return l
		}
	}
	t.Fatalf("runs does not list %s:\n%s", id, out)
	return ""
}
