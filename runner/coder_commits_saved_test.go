package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/sandbox"
)

// endedWithCommits leaves run id as a run that ended without landing: its
// patch and the coder's commits kept as finish keeps them. tamper, when
// set, changes the kept commits afterwards.
func endedWithCommits(t *testing.T, id string, tamper bool) (*Project, Snapshot, Change) {
	t.Helper()
	ctx := context.Background()
	p, ws, snap, runDir := wsRun(t, id)
	gitT(t, p.Root, "config", "user.name", "Pat Person")
	gitT(t, p.Root, "config", "user.email", "pat@example.test")
	write(t, filepath.Join(ws.Dir, "one.txt"), "one\n")
	coderGit(t, ws.Dir, "add", "one.txt")
	coderGit(t, ws.Dir, "commit", "-qm", "feat: add one\n\nAs AGENTS.md says.")
	write(t, filepath.Join(ws.Dir, "a.txt"), "a\nby the coder\n")
	coderGit(t, ws.Dir, "commit", "-qam", "fix: a says who")
	write(t, filepath.Join(ws.Dir, "left.txt"), "uncommitted\n")
	ch, err := ws.Diff(ctx)
	if err != nil {
		t.Fatal(err)
	}
	list, why, err := ws.Commits(ctx)
	if err != nil || why != "" || len(list) != 2 {
		t.Fatalf("Commits: %d, %q, %v", len(list), why, err)
	}
	sha, err := saveCoderCommits(runDir, list)
	if err != nil {
		t.Fatal(err)
	}
	if tamper {
		b, _ := os.ReadFile(filepath.Join(runDir, coderCommitsFile))
		os.WriteFile(filepath.Join(runDir, coderCommitsFile), []byte(strings.Replace(string(b), "fix: a says who", "fix: planted", 1)), 0o600)
	}
	if err := os.WriteFile(filepath.Join(runDir, "patch.diff"), ch.Patch, 0o600); err != nil {
		t.Fatal(err)
	}
	m := &Meta{ID: id, Task: "Add one\nand say who wrote a", Coder: "demo", Status: StatusFailed, Started: time.Now().UTC(), Apply: ApplyNone,
		Base: snap.Base, Snapshot: snap.Commit, Workspace: WorkspaceClone, PatchSHA256: sha256Hex(ch.Patch), CoderCommitsSHA256: sha}
	if err := writeMeta(runDir, m); err != nil {
		t.Fatal(err)
	}
	return p, snap, ch
}

// `sentinel review` landing a run later lands the coder's commits as they
// were, like a live run: each with its message, authored by the person, in
// order, then what it left uncommitted; the last tree is the verified one.
func TestReviewLandsTheCodersCommitsAsTheyWere(t *testing.T) {
	t.Parallel()

	ctx := context.Background()
	id := "20260101-000000-00c101"
	p, snap, ch := endedWithCommits(t, id, false)
	f, err := OpenFinished(ctx, p, id)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	l, err := f.Approve(ctx, nil, ApplyBranch, ApproveOptions{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	got := history(t, p, snap, l.Branch)
	want := []string{
		"feat: add one|Pat Person <pat@example.test>|",
		"fix: a says who|Pat Person <pat@example.test>|",
		"Add one|Pat Person <pat@example.test>|none configured",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("landed history:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if body := gitT(t, p.Root, "log", "-1", "--format=%B", l.Commits[0]); !strings.Contains(body, "As AGENTS.md says.") || !strings.Contains(body, "Sentinel-Run: "+id) {
		t.Fatalf("the first commit's message:\n%s", body)
	}
	if tree := gitT(t, p.Root, "rev-parse", l.Branch+"^{tree}"); tree != ch.Tree {
		t.Fatalf("the branch's tree %s is not the verified change's %s", tree, ch.Tree)
	}
}

// Kept commits that are not the ones Sentinel kept are not used: the work
// lands as one commit.
func TestReviewIgnoresChangedCoderCommits(t *testing.T) {
	t.Parallel()

	ctx := context.Background()
	id := "20260101-000000-00c102"
	p, snap, _ := endedWithCommits(t, id, true)
	f, err := OpenFinished(ctx, p, id)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	l, err := f.Approve(ctx, nil, ApplyBranch, ApproveOptions{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := history(t, p, snap, l.Branch); len(got) != 1 || strings.Contains(strings.Join(got, ""), "planted") {
		t.Fatalf("landed history: %q", got)
	}
}

// A run that ends without landing (here: --apply none, and the coder exits
// non-zero after committing) keeps its commits, and review lands them one
// by one.
func TestAFailedRunKeepsTheCodersCommitsForReview(t *testing.T) {
	t.Parallel()

	ctx := context.Background()
	p := stopRepo(t)
	script := "git -c user.name=bot -c user.email=bot@x commit -q --allow-empty -m 'chore: empty start' && echo b > a.txt && " +
		"git -c user.name=bot -c user.email=bot@x commit -qam 'feat: b in a' && exit 1"
	r, err := Start(ctx, Options{Project: p, Task: "edit a.txt",
		Coder:   CoderOptions{Name: "command", Command: []string{"sh", "-c", script}},
		Landing: LandingOptions{Apply: ApplyNone},
		Sandbox: SandboxOptions{Mode: sandbox.ModeOff}})
	if err != nil {
		t.Fatal(err)
	}
	if res := waitResult(t, r, "committed then failed"); res.Status != StatusFailed {
		t.Fatalf("the run ended %s: %v", res.Status, res.Err)
	}
	f, err := OpenFinished(ctx, p, r.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Meta.CoderCommitsSHA256 == "" {
		t.Fatal("the run kept no record of the coder's commits")
	}
	l, err := f.Approve(ctx, nil, ApplyBranch, ApproveOptions{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	subjects := gitT(t, p.Root, "log", "--reverse", "--format=%s", f.Meta.Snapshot+".."+l.Branch)
	if subjects != "chore: empty start\nfeat: b in a" {
		t.Fatalf("landed subjects:\n%s", subjects)
	}
}
