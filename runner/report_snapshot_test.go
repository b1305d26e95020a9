package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestFinalReportExplainsTheSnapshotAndItsCommandLandsWithoutIt lands a
// run that started from uncommitted changes, then follows the final
// report's own instructions: the one-line command it prints, run as
// printed, leaves the branch with the coder's commit alone on the old
// HEAD — the person's uncommitted changes are not on it.
func TestFinalReportExplainsTheSnapshotAndItsCommandLandsWithoutIt(t *testing.T) {
	t.Parallel()

	ctx := context.Background()
	id := "20260101-000000-0000c1"
	p, ws, snap, runDir := wsRun(t, id)
	if !snap.Dirty {
		t.Fatal("the project has uncommitted changes: the snapshot should be dirty")
	}
	write(t, filepath.Join(ws.Dir, "coder.txt"), "the coder's work\n")
	ch, err := ws.Diff(ctx)
	if err != nil {
		t.Fatal(err)
	}
	patchPath := filepath.Join(runDir, "patch.diff")
	if err := os.WriteFile(patchPath, ch.Patch, 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := Land(ctx, p, snap, ch, ApplyBranch, id, "the coder's change", patchPath, runDir)
	if err != nil {
		t.Fatal(err)
	}
	m := &Meta{ID: id, Status: StatusLanded, Base: snap.Base, Snapshot: snap.Commit, Files: ch.Files, Landing: &l}
	final := renderFinalReport(m, nil, nil)
	for _, want := range []string{"snapshot commit " + short(snap.Commit), "uncommitted changes", "two commits", "git stash"} {
		if !strings.Contains(final, want) {
			t.Errorf("FINAL_REPORT.md lacks %q:\n%s", want, final)
		}
	}
	cmdLine := regexp.MustCompile("(?m)^git rebase .*$").FindString(final)
	if cmdLine == "" {
		t.Fatalf("no git command to land without the snapshot:\n%s", final)
	}
	// The person follows the report: stash, then the printed line, as printed.
	gitT(t, p.Root, "stash", "-u")
	sh := exec.Command("sh", "-c", "cd \"$1\" && "+cmdLine, "sh", p.Root)
	sh.Env = append(gitEnv(), "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@t")
	if out, err := sh.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cmdLine, err, out)
	}
	if parent := strings.TrimSpace(gitT(t, p.Root, "rev-parse", l.Branch+"^")); parent != snap.Base {
		t.Fatalf("after the command the branch's parent is %s, want the old HEAD %s", parent, snap.Base)
	}
	if files := strings.Fields(gitT(t, p.Root, "diff", "--name-only", snap.Base, l.Branch)); strings.Join(files, ",") != "coder.txt" {
		t.Fatalf("the branch carries %q, want only the coder's coder.txt", files)
	}
	// A clean start has no snapshot to explain.
	m.Landing = &Landing{Mode: ApplyBranch, Branch: "sentinel/" + id, Commit: l.Commit}
	if clean := renderFinalReport(m, nil, nil); strings.Contains(clean, "snapshot commit") {
		t.Errorf("a run from a clean HEAD explains a snapshot:\n%s", clean)
	}
}
