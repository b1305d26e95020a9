package runs

import (
	"strings"
	"testing"
)

// TestARunKeptWithApplyNoneIsNotListedLanded: --apply none puts nothing in
// the repository, so the run's end line and `sentinel runs` say "kept", not
// "landed" (the record never contradicts the repository); once review lands
// it on a branch, runs says landed and names the branch.
func TestARunKeptWithApplyNoneIsNotListedLanded(t *testing.T) {
	dir := scratchRepo(t)
	res := sentinel(t, dir, nil, "run", "--plain", "--sandbox", "off", "--coder", "command", "--apply", "none",
		"--verify", "true", "edit a.txt", "--", "sh", "-c", "echo changed > a.txt")
	if res.code != 0 {
		t.Fatalf("run --apply none: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	id := lastRun(t, dir)
	if b := git(t, dir, "branch", "--list", "sentinel/*"); b != "" {
		t.Fatalf("--apply none made a branch: %s", b)
	}
	runs := sentinel(t, dir, nil, "runs")
	row := rowOf(t, runs.stdout, id)
	if !strings.Contains(row, "\tkept\t") || strings.Contains(row, "landed") {
		t.Fatalf("runs lists the kept run as:\n%s", row)
	}
	if !strings.Contains(res.stdout+res.stderr, "run "+id+": kept") {
		t.Fatalf("the run's end line does not say kept:\n%s\n%s", res.stdout, res.stderr)
	}
	if r := sentinel(t, dir, nil, "review", id, "--approve"); r.code != 0 {
		t.Fatalf("review --approve: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if row := rowOf(t, sentinel(t, dir, nil, "runs").stdout, id); !strings.Contains(row, "landed → sentinel/"+id) {
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
