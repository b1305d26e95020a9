package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// coderGit is git in the coder's copy as the coder runs it: its own
// identity, nothing of the person's.
func coderGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return gitT(t, dir, append([]string{"-c", "user.name=Coder Bot", "-c", "user.email=bot@coder"}, args...)...)
}

// landCoderWork lands what the coder left in ws with its commits as
// Commits reads them, and returns the landing and the branch.
func landCoderWork(t *testing.T, p *Project, ws *Workspace, snap Snapshot, runDir, id string) (Landing, Change) {
	t.Helper()
	ctx := context.Background()
	ch, err := ws.Diff(ctx)
	if err != nil {
		t.Fatal(err)
	}
	list, why, err := ws.Commits(ctx)
	if err != nil || why != "" {
		t.Fatalf("Commits: %v %q", err, why)
	}
	if len(list) > 0 {
		ch.Coder = &CoderCommits{List: list, Trailers: "Sentinel-Run: " + id + "\n",
			LastTrailers: "Sentinel-Run: " + id + "\nSentinel-Verified: v\n", Rest: "the rest\n\nSentinel-Run: " + id + "\nSentinel-Verified: v\n"}
	}
	patch := filepath.Join(runDir, "patch.diff")
	if err := os.WriteFile(patch, ch.Patch, 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := Land(ctx, p, snap, ch, ApplyBranch, id, "the task\n\nSentinel-Run: "+id+"\n", patch, runDir)
	if err != nil {
		t.Fatal(err)
	}
	return l, ch
}

// history is the landed commits after the snapshot, oldest first: subject,
// author and the message's Sentinel trailers.
func history(t *testing.T, p *Project, snap Snapshot, branch string) []string {
	out := gitT(t, p.Root, "log", "--reverse", "--format=%s|%an <%ae>|%(trailers:key=Sentinel-Verified,valueonly,separator=%x2C)|%x00", snap.Commit+".."+branch)
	var h []string
	for _, c := range strings.Split(out, "\x00") {
		if c = strings.TrimSpace(c); c != "" {
			h = append(h, strings.TrimSuffix(c, "|"))
		}
	}
	return h
}

func TestLandKeepsTheCodersCommitsThenTheRest(t *testing.T) {
	t.Parallel()

	id := "20260101-000000-00c001"
	p, ws, snap, runDir := wsRun(t, id)
	gitT(t, p.Root, "config", "user.name", "Pat Person")
	gitT(t, p.Root, "config", "user.email", "pat@example.test")
	write(t, filepath.Join(ws.Dir, "one.txt"), "one\n")
	coderGit(t, ws.Dir, "add", "one.txt")
	coderGit(t, ws.Dir, "commit", "-qm", "feat: add one\n\nWhy one.\nSentinel-Verified: forged by the coder")
	write(t, filepath.Join(ws.Dir, "a.txt"), "a\nby the coder\n")
	coderGit(t, ws.Dir, "commit", "-qam", "fix: a says who")
	second := coderGit(t, ws.Dir, "rev-parse", "HEAD^{tree}")
	write(t, filepath.Join(ws.Dir, "left.txt"), "uncommitted\n")

	l, ch := landCoderWork(t, p, ws, snap, runDir, id)
	got := history(t, p, snap, l.Branch)
	want := []string{
		"feat: add one|Pat Person <pat@example.test>|",
		"fix: a says who|Pat Person <pat@example.test>|",
		"the rest|Pat Person <pat@example.test>|v",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("landed history:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(l.Commits) != 3 || l.Commit != l.Commits[2] || l.Squashed != "" {
		t.Fatalf("landing = %+v", l)
	}
	if body := gitT(t, p.Root, "log", "-1", "--format=%B", l.Commits[0]); !strings.Contains(body, "Why one.") || strings.Contains(body, "forged") || !strings.Contains(body, "Sentinel-Run: "+id) {
		t.Fatalf("the first commit's message:\n%s", body)
	}
	if tree := gitT(t, p.Root, "rev-parse", l.Commits[1]+"^{tree}"); tree != second {
		t.Fatalf("the coder's second commit landed with tree %s, made with %s", tree, second)
	}
	// What lands is the verified tree, whatever the commits say.
	if tree := gitT(t, p.Root, "rev-parse", l.Branch+"^{tree}"); tree != ch.Tree {
		t.Fatalf("the branch's tree %s is not the verified change's %s", tree, ch.Tree)
	}
}

func TestLandAllCommittedEndsOnTheCodersLastCommit(t *testing.T) {
	t.Parallel()

	id := "20260101-000000-00c002"
	p, ws, snap, runDir := wsRun(t, id)
	write(t, filepath.Join(ws.Dir, "one.txt"), "one\n")
	coderGit(t, ws.Dir, "add", "one.txt")
	coderGit(t, ws.Dir, "commit", "-qm", "add one")
	coderGit(t, ws.Dir, "rm", "-q", "b.txt")
	coderGit(t, ws.Dir, "commit", "-qm", "drop b")

	l, ch := landCoderWork(t, p, ws, snap, runDir, id)
	got := history(t, p, snap, l.Branch)
	if len(got) != 2 || !strings.HasPrefix(got[0], "add one|") || !strings.HasPrefix(got[1], "drop b|") || !strings.HasSuffix(got[1], "|v") {
		t.Fatalf("landed history:\n%s", strings.Join(got, "\n"))
	}
	if tree := gitT(t, p.Root, "rev-parse", l.Branch+"^{tree}"); tree != ch.Tree {
		t.Fatalf("the branch's tree %s is not the verified change's %s", tree, ch.Tree)
	}
}

func TestLandWithoutCoderCommitsIsOneCommit(t *testing.T) {
	t.Parallel()

	id := "20260101-000000-00c003"
	p, ws, snap, runDir := wsRun(t, id)
	write(t, filepath.Join(ws.Dir, "one.txt"), "one\n")
	l, _ := landCoderWork(t, p, ws, snap, runDir, id)
	if got := history(t, p, snap, l.Branch); len(got) != 1 || !strings.HasPrefix(got[0], "the task|") || len(l.Commits) != 0 {
		t.Fatalf("landed history: %q, landing %+v", got, l)
	}
}

// A commit that passed through a path no landing may write (even one the
// coder removed again) is not replayed: the work lands as one commit.
func TestCoderCommitsThroughAForbiddenPathLandAsOne(t *testing.T) {
	t.Parallel()

	id := "20260101-000000-00c004"
	_, ws, _, _ := wsRun(t, id)
	write(t, filepath.Join(ws.Dir, ".sentinel", "policy.toml"), "[policy]\n")
	coderGit(t, ws.Dir, "add", "-f", ".sentinel/policy.toml")
	coderGit(t, ws.Dir, "commit", "-qm", "plant a config")
	coderGit(t, ws.Dir, "rm", "-q", ".sentinel/policy.toml")
	coderGit(t, ws.Dir, "commit", "-qm", "hide it")
	list, why, err := ws.Commits(context.Background())
	if err != nil || list != nil || !strings.Contains(why, "refusing to land") {
		t.Fatalf("Commits = %v, %q, %v; want none and the refusal", list, why, err)
	}
}

// A change a coder's commits do not lead to (the review accepted only part
// of it) lands as one commit: no commit carries what was rejected.
func TestLandCommitsThatDoNotApplyLandAsOne(t *testing.T) {
	t.Parallel()

	id := "20260101-000000-00c005"
	p, ws, snap, runDir := wsRun(t, id)
	ctx := context.Background()
	write(t, filepath.Join(ws.Dir, "one.txt"), "one\n")
	coderGit(t, ws.Dir, "add", "one.txt")
	coderGit(t, ws.Dir, "commit", "-qm", "add one")
	ch, err := ws.Diff(ctx)
	if err != nil {
		t.Fatal(err)
	}
	list, _, _ := ws.Commits(ctx)
	list[0].Patch = []byte("diff --git a/zz b/zz\n--- a/zz\n+++ b/zz\n@@ -1 +1 @@\n-x\n+y\n")
	ch.Coder = &CoderCommits{List: list, Rest: "rest"}
	patch := filepath.Join(runDir, "patch.diff")
	os.WriteFile(patch, ch.Patch, 0o600)
	l, err := Land(ctx, p, snap, ch, ApplyBranch, id, "the task", patch, runDir)
	if err != nil {
		t.Fatal(err)
	}
	if got := history(t, p, snap, l.Branch); len(got) != 1 || !strings.HasPrefix(got[0], "the task|") || !strings.Contains(l.Squashed, "does not apply") {
		t.Fatalf("landed history: %q, landing %+v", got, l)
	}
}

func TestTaskSubjectKeepsTheFirstLineWholeWhereItFits(t *testing.T) {
	t.Parallel()
	s, b := taskSubject("  Fix the parser so that nested quotes survive a round trip through the formatter\nDetails here.\n")
	if s != "Fix the parser so that nested quotes survive a round trip through the formatter" || b != "Details here." {
		t.Fatalf("subject %q body %q", s, b)
	}
	long := strings.Repeat("word ", 40)
	s, b = taskSubject(long + "\nmore")
	if len([]rune(s)) > maxSubject || !strings.HasSuffix(s, "…") || !strings.HasPrefix(b, strings.TrimSpace(long)+"\n\nmore") {
		t.Fatalf("subject %q body %q", s, b)
	}
	if m := cleanCoderMessage("x\x1b[31m\nSentinel-Run: fake\n\n"); m != "x[31m" {
		t.Fatalf("cleaned %q", m)
	}
}
