package runner

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitT runs git in dir with a throwaway identity and fails the test on error.
func gitT(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := gitTestCmd(dir, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// gitTestCmd is git in dir with a throwaway identity and the tests'
// environment (gitEnv).
func gitTestCmd(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	cmd.Env = gitEnv()
	return cmd
}

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// dirtyRepo makes a repository with one commit plus every kind of
// uncommitted change: a modified tracked file, a staged change with a
// further unstaged edit, a new untracked file, and an ignored file.
func dirtyRepo(t *testing.T) *Project {
	t.Helper()
	dir := t.TempDir()
	gitT(t, dir, "init", "-q")
	write(t, filepath.Join(dir, "a.txt"), "a\n")
	write(t, filepath.Join(dir, "b.txt"), "b\n")
	write(t, filepath.Join(dir, ".gitignore"), "*.log\n")
	gitT(t, dir, "add", "-A")
	gitT(t, dir, "commit", "-qm", "init")
	write(t, filepath.Join(dir, "a.txt"), "a\nmodified\n")
	write(t, filepath.Join(dir, "b.txt"), "b\nstaged\n")
	gitT(t, dir, "add", "b.txt")
	write(t, filepath.Join(dir, "b.txt"), "b\nstaged\nunstaged\n")
	write(t, filepath.Join(dir, "new.txt"), "untracked\n")
	write(t, filepath.Join(dir, "debug.log"), "ignored\n")
	p, err := FindProject(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.EnsureState(); err != nil {
		t.Fatal(err)
	}
	return p
}

// fingerprint captures what the person would notice changing: HEAD, the
// current branch, the index file's bytes, status, and every ref.
func fingerprint(t *testing.T, p *Project) string {
	t.Helper()
	idx, _ := os.ReadFile(filepath.Join(p.GitDir, "index"))
	return strings.Join([]string{
		gitT(t, p.Root, "symbolic-ref", "HEAD"),
		gitT(t, p.Root, "rev-parse", "HEAD"),
		string(idx),
		gitT(t, p.Root, "status", "--porcelain", "--untracked-files=all"),
		readAll(t, p.Root, "a.txt", "b.txt", "new.txt", "debug.log"),
	}, "\x00")
}

func readAll(t *testing.T, dir string, names ...string) string {
	var b strings.Builder
	for _, n := range names {
		c, _ := os.ReadFile(filepath.Join(dir, n))
		b.WriteString(n + ":" + string(c))
	}
	return b.String()
}

func TestWorkspaceHoldsHeadPlusUncommittedChangesAndLandsOnABranch(t *testing.T) {
	t.Parallel()

	ctx := context.Background()
	p := dirtyRepo(t)
	before := fingerprint(t, p)
	id := "20260101-000000-0000a1"
	runDir := p.RunDir(id)
	os.MkdirAll(runDir, 0o700)

	snap, err := TakeSnapshot(ctx, p, runDir)
	if err != nil {
		t.Fatal(err)
	}
	if !snap.Dirty || snap.Commit == snap.Base {
		t.Fatalf("snapshot of a dirty tree: %+v", snap)
	}
	ws, err := CreateWorkspace(ctx, p, snap, p.WorkDir(id), filepath.Join(runDir, "shadow.git"), "sentinel/"+id)
	if err != nil {
		t.Fatal(err)
	}
	got := readAll(t, ws.Dir, "a.txt", "b.txt", "new.txt", "debug.log")
	want := "a.txt:a\nmodified\nb.txt:b\nstaged\nunstaged\nnew.txt:untracked\ndebug.log:"
	if got != want {
		t.Fatalf("workspace files:\n%q\nwant\n%q", got, want)
	}
	if out := gitT(t, ws.Dir, "remote"); out != "" {
		t.Fatalf("workspace has remotes %q: a coder could push back", out)
	}

	// The coder edits, adds and deletes; it also plants a hook and a config
	// that would run code if Sentinel's git trusted the workspace's .git.
	write(t, filepath.Join(ws.Dir, "a.txt"), "a\nmodified\ncoder\n")
	write(t, filepath.Join(ws.Dir, "dir/c.txt"), "c\n")
	os.Remove(filepath.Join(ws.Dir, "new.txt"))
	marker := filepath.Join(t.TempDir(), "pwned")
	write(t, filepath.Join(ws.Dir, ".git/hooks/pre-commit"), "#!/bin/sh\ntouch "+marker+"\n")
	os.Chmod(filepath.Join(ws.Dir, ".git/hooks/pre-commit"), 0o755)
	gitT(t, ws.Dir, "config", "core.fsmonitor", "touch "+marker+"; false")
	gitT(t, ws.Dir, "config", "filter.evil.clean", "touch "+marker+"; cat")
	write(t, filepath.Join(ws.Dir, ".git/info/attributes"), "* filter=evil\n")

	ch, err := ws.Diff(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(ch.Files, ",") != "a.txt,dir/c.txt,new.txt" {
		t.Fatalf("changed files = %v", ch.Files)
	}
	patch := filepath.Join(runDir, "patch.diff")
	os.WriteFile(patch, ch.Patch, 0o600)
	l, err := Land(ctx, p, snap, ch, ApplyBranch, id, "coder work", patch, runDir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("something from the workspace's .git ran on Sentinel's side")
	}
	if after := fingerprint(t, p); after != before {
		t.Fatalf("the person's checkout changed:\nbefore %q\nafter  %q", before, after)
	}
	log := gitT(t, p.Root, "log", "--format=%s", "sentinel/"+id)
	if !strings.HasPrefix(log, "coder work\nsentinel: snapshot of uncommitted changes\ninit") {
		t.Fatalf("branch history:\n%s", log)
	}
	if l.Snapshot == "" || l.Commit == "" || l.Branch != "sentinel/"+id {
		t.Fatalf("landing = %+v", l)
	}
	snapFiles := gitT(t, p.Root, "diff", "--name-only", snap.Base, "sentinel/"+id+"~1")
	if snapFiles != "a.txt\nb.txt\nnew.txt" {
		t.Fatalf("snapshot commit changed %q", snapFiles)
	}
	if c := gitT(t, p.Root, "show", "sentinel/"+id+":a.txt"); c != "a\nmodified\ncoder" {
		t.Fatalf("landed a.txt = %q", c)
	}
	if c := gitT(t, p.Root, "show", "sentinel/"+id+":dir/c.txt"); c != "c" {
		t.Fatalf("landed dir/c.txt = %q", c)
	}
	// A second landing of the same run id must not overwrite the branch.
	if _, err := Land(ctx, p, snap, ch, ApplyBranch, id, "again", patch, runDir); err == nil {
		t.Fatal("landing twice on the same branch succeeded")
	}
}

func TestApplyWorktreeAndNone(t *testing.T) {
	t.Parallel()

	ctx := context.Background()
	p := dirtyRepo(t)
	id := "20260101-000000-0000a2"
	runDir := p.RunDir(id)
	os.MkdirAll(runDir, 0o700)
	snap, _ := TakeSnapshot(ctx, p, runDir)
	ws, err := CreateWorkspace(ctx, p, snap, p.WorkDir(id), filepath.Join(runDir, "shadow.git"), "sentinel/"+id)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(ws.Dir, "b.txt"), "b\nstaged\nunstaged\ncoder\n")
	ch, _ := ws.Diff(ctx)
	patch := filepath.Join(runDir, "patch.diff")
	os.WriteFile(patch, ch.Patch, 0o600)

	before := fingerprint(t, p)
	if _, err := Land(ctx, p, snap, ch, ApplyNone, id, "m", patch, runDir); err != nil {
		t.Fatal(err)
	}
	if fingerprint(t, p) != before {
		t.Fatal("--apply none changed the project")
	}
	if _, err := Land(ctx, p, snap, ch, ApplyWorktree, id, "m", patch, runDir); err != nil {
		t.Fatal(err)
	}
	if c, _ := os.ReadFile(filepath.Join(p.Root, "b.txt")); string(c) != "b\nstaged\nunstaged\ncoder\n" {
		t.Fatalf("worktree b.txt = %q", c)
	}
	if gitT(t, p.Root, "branch", "--list", "sentinel/*") != "" {
		t.Fatal("--apply worktree created a branch")
	}
	// The person edits the same lines meanwhile: the patch no longer applies
	// and nothing is half-applied.
	write(t, filepath.Join(p.Root, "b.txt"), "totally different\n")
	write(t, filepath.Join(p.Root, "a.txt"), "a2\n")
	ch2 := ch
	ch2.Files = append([]string{"a.txt"}, ch.Files...)
	if _, err := Land(ctx, p, snap, ch, ApplyWorktree, id, "m", patch, runDir); err == nil {
		t.Fatal("a conflicting patch applied")
	}
	if c, _ := os.ReadFile(filepath.Join(p.Root, "b.txt")); string(c) != "totally different\n" {
		t.Fatalf("b.txt touched by a refused apply: %q", c)
	}
}

func TestCleanTreeHasNoSnapshotCommit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	gitT(t, dir, "init", "-q")
	write(t, filepath.Join(dir, "x"), "x\n")
	gitT(t, dir, "add", "-A")
	gitT(t, dir, "commit", "-qm", "init")
	p, _ := FindProject(ctx, dir)
	p.EnsureState() // .sentinel itself must not count as a change
	snap, err := TakeSnapshot(ctx, p, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if snap.Dirty || snap.Commit != snap.Base {
		t.Fatalf("clean tree snapshot = %+v", snap)
	}
}

func TestFindProjectErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	if _, err := FindProject(ctx, t.TempDir()); err == nil || !strings.Contains(err.Error(), "not inside a git repository") {
		t.Fatalf("plain dir: %v", err)
	}
	dir := t.TempDir()
	gitT(t, dir, "init", "-q")
	if _, err := FindProject(ctx, dir); err == nil || !strings.Contains(err.Error(), "no commits yet") {
		t.Fatalf("empty repo: %v", err)
	}
}

func TestCheckPathsRefusesEscapes(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	os.Symlink("/etc", filepath.Join(root, "link"))
	for _, bad := range []string{"/etc/passwd", "../x", "a/../../x", ".git/hooks/pre-commit", "sub/.GIT/config", "link/passwd"} {
		if err := CheckPaths(root, []string{bad}); err == nil {
			t.Errorf("CheckPaths accepted %q", bad)
		}
	}
	if err := CheckPaths(root, []string{"src/main.go", ".github/workflows/ci.yml", "a.gitignore"}); err != nil {
		t.Errorf("CheckPaths refused ordinary paths: %v", err)
	}
}

func TestUTF8BoundaryNeverSplitsARune(t *testing.T) {
	t.Parallel()
	s := []byte("héllo→世界")
	for cut := 0; cut <= len(s); cut++ {
		n := utf8Boundary(s[:cut])
		if n > cut || !validPrefix(s[:n]) {
			t.Fatalf("cut %d: boundary %d splits a rune", cut, n)
		}
		if cut-n >= 4 {
			t.Fatalf("cut %d: boundary %d holds back too much", cut, n)
		}
	}
}

func validPrefix(b []byte) bool { return strings.ToValidUTF8(string(b), "\uFFFD") == string(b) }

func TestWorktreeApplyIsThreeWay(t *testing.T) {
	t.Parallel()

	ctx := context.Background()
	id := "20260101-000000-0000a3"
	dir := t.TempDir()
	gitT(t, dir, "init", "-q")
	lines := func(n int, tag string) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "line %d%s\n", i, tag)
		}
		return b.String()
	}
	write(t, filepath.Join(dir, "long.txt"), lines(40, ""))
	write(t, filepath.Join(dir, "other.txt"), "other\n")
	gitT(t, dir, "add", "-A")
	gitT(t, dir, "commit", "-qm", "init")
	p, _ := FindProject(ctx, dir)
	p.EnsureState()
	runDir := p.RunDir(id)
	os.MkdirAll(runDir, 0o700)
	snap, _ := TakeSnapshot(ctx, p, runDir)
	ws, err := CreateWorkspace(ctx, p, snap, p.WorkDir(id), filepath.Join(runDir, "shadow.git"), "sentinel/"+id)
	if err != nil {
		t.Fatal(err)
	}
	// The coder edits line 35 and adds a file.
	write(t, filepath.Join(ws.Dir, "long.txt"), strings.Replace(lines(40, ""), "line 35\n", "line 35 (coder)\n", 1))
	write(t, filepath.Join(ws.Dir, "new.txt"), "new\n")
	ch, _ := ws.Diff(ctx)
	patch := filepath.Join(runDir, "patch.diff")
	os.WriteFile(patch, ch.Patch, 0o600)

	// Meanwhile the person edits line 2 of the same file and another file.
	write(t, filepath.Join(dir, "long.txt"), strings.Replace(lines(40, ""), "line 2\n", "line 2 (person)\n", 1))
	write(t, filepath.Join(dir, "other.txt"), "other, edited\n")
	if _, err := Land(ctx, p, snap, ch, ApplyWorktree, id, "m", patch, runDir); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "long.txt"))
	if !strings.Contains(string(got), "line 2 (person)\n") || !strings.Contains(string(got), "line 35 (coder)\n") {
		t.Fatalf("three-way result lost a side:\n%s", got)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "other.txt")); string(b) != "other, edited\n" {
		t.Fatalf("the person's unrelated edit was touched: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "new.txt")); string(b) != "new\n" {
		t.Fatalf("new.txt = %q", b)
	}

	// Now the person rewrites the coder's line too: a conflict refuses the
	// whole apply and names the file; nothing is written.
	write(t, filepath.Join(dir, "long.txt"), strings.Replace(lines(40, ""), "line 35\n", "line 35 (person)\n", 1))
	os.Remove(filepath.Join(dir, "new.txt"))
	before := readAll(t, dir, "long.txt", "other.txt", "new.txt")
	_, err = Land(ctx, p, snap, ch, ApplyWorktree, id, "m", patch, runDir)
	if err == nil || !strings.Contains(err.Error(), "long.txt") || !strings.Contains(err.Error(), "nothing was applied") {
		t.Fatalf("conflicting apply: %v", err)
	}
	if after := readAll(t, dir, "long.txt", "other.txt", "new.txt"); after != before {
		t.Fatalf("a refused apply changed files:\n%s\n---\n%s", before, after)
	}
	if _, err := os.Stat(pendingPath(runDir)); err == nil {
		t.Fatal("a refused apply left a pending marker")
	}
}
