package runner

import (
	"strings"
	"testing"
	"time"
)

// TestANoChangeRunNeverSaysLanded (#37 F5): a run that landed a branch
// holding only the snapshot of the person's uncommitted changes — the
// coder changed no files — reads "no changes" in every view: its state
// word, its end line, PROGRESS.md and FINAL_REPORT.md. A run that did
// land files still says where.
func TestANoChangeRunNeverSaysLanded(t *testing.T) {
	t.Parallel()
	snapshotOnly := Landing{Mode: ApplyBranch, Branch: "sentinel/r1", Commit: "abc", Snapshot: "def"}
	m := &Meta{ID: "r1", Task: "t", Coder: "demo", Status: StatusLanded, Landing: &snapshotOnly,
		Started: time.Unix(0, 0), Ended: time.Unix(60, 0)}
	views := map[string]string{
		"state":        StateOf(m),
		"end line":     LandingLine(snapshotOnly),
		"PROGRESS.md":  renderProgress(m, nil, time.Unix(60, 0)),
		"FINAL_REPORT": renderFinalReport(m, nil, nil),
	}
	for name, v := range views {
		if strings.Contains(strings.ToLower(v), "landed") && !strings.Contains(v, "What landed") {
			t.Errorf("%s of a no-change run says landed:\n%s", name, v)
		}
		if !strings.Contains(v, NoChanges) && !strings.Contains(v, "changed no files") {
			t.Errorf("%s of a no-change run does not say it changed nothing:\n%s", name, v)
		}
	}
	landed := Landing{Mode: ApplyBranch, Branch: "sentinel/r2", Files: []string{"a.go"}}
	if l := LandingLine(landed); !strings.HasPrefix(l, "landed on branch sentinel/r2 (1 file(s))") {
		t.Errorf("a run that landed a file ends with %q", l)
	}
}
