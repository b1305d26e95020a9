package runs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// A failed check's output is shown, not only its exit status: under its
// line in --plain, in sentinel show and in the final report.
func TestFailedCheckOutputIsShownEverywhere(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	check := "echo building; echo 'shout_test.go:9: got hi, want HI'; exit 3"
	res := e2etest.Sentinel(t, dir, nil, "run", "--plain", "--coder", "command", "--verify", check, "shout", "--", "sh", "-c", "echo hi > shout.txt")
	if res.Code != 1 || !strings.Contains(res.Stderr, "verification failed") {
		t.Fatalf("exit %d, stderr %q\n%s", res.Code, res.Stderr, res.Stdout)
	}
	const want = "[TOOL]   │ shout_test.go:9: got hi, want HI"
	if !strings.Contains(res.Stdout, want) {
		t.Errorf("--plain does not show the failed check's output:\n%s", res.Stdout)
	}
	if show := e2etest.Sentinel(t, dir, nil, "show", "last"); !strings.Contains(show.Stdout, want) {
		t.Errorf("sentinel show does not show the failed check's output:\n%s", show.Stdout)
	}
	m, _ := filepath.Glob(filepath.Join(dir, ".sentinel", "runs", "*", "FINAL_REPORT.md"))
	if len(m) != 1 {
		t.Fatal("no FINAL_REPORT.md")
	}
	report, _ := os.ReadFile(m[0])
	if !strings.Contains(string(report), "(exit 3, tail):\n\n```\nbuilding\nshout_test.go:9: got hi, want HI\n```") {
		t.Errorf("FINAL_REPORT.md does not show the failed check's output:\n%s", report)
	}
}
