package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// TestAReportThatCannotBeWrittenIsVisible: the failure is journaled and in
// the run's outcome, even for a run that landed.
func TestAReportThatCannotBeWrittenIsVisible(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	j, err := journal.Open(filepath.Join(dir, "events.jsonl"), "r1")
	if err != nil {
		t.Fatal(err)
	}
	// HANDOFF.md is a non-empty directory: the rename onto it fails (even as root).
	if err := os.MkdirAll(filepath.Join(dir, "HANDOFF.md", "x"), 0o700); err != nil {
		t.Fatal(err)
	}
	r := &runCore{dir: dir, journal: j}
	s := &reportStage{id: "r1", dir: dir, emit: r.emit}
	s.write("HANDOFF.md", "# handoff\n")
	s.write("PROGRESS.md", "# progress\n")
	j.Close()
	evs, _ := journal.ReadFile(filepath.Join(dir, "events.jsonl"))
	if len(evs) != 1 || evs[0].Kind != "error" || !strings.Contains(evs[0].Text, "could not write HANDOFF.md") {
		t.Errorf("journal = %+v; want one error naming HANDOFF.md", evs)
	}
	res := s.withErr(Result{Status: StatusLanded}, nil)
	if res.Err == nil || !strings.Contains(res.Err.Error(), "HANDOFF.md") {
		t.Errorf("the outcome does not carry the failed report: %v", res.Err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "PROGRESS.md")); err != nil || string(b) != "# progress\n" {
		t.Errorf("a writable report was not written: %q %v", b, err)
	}
}
