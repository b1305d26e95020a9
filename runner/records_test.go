package runner

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/sandbox"
)

// recordsProject is a project (no git needed) with its state directories,
// and the user's state dir in a temp dir.
func recordsProject(t *testing.T) *Project {
	t.Helper()
	p := &Project{Root: t.TempDir()}
	for _, d := range []string{"runs", "work", "recovery"} {
		if err := os.MkdirAll(filepath.Join(p.StateDir(), d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

func newRunDir(t *testing.T, p *Project) (string, string) {
	t.Helper()
	id := NewRunID(time.Now())
	dir := p.RunDir(id)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return id, dir
}

func TestRunIDsAreValidatedBeforeUse(t *testing.T) {
	t.Parallel()

	for _, id := range []string{NewRunID(time.Now()), "20260101-000000-abcdef"} {
		if !ValidRunID(id) {
			t.Errorf("%q refused", id)
		}
	}
	for _, id := range []string{"", "..", "../../etc", "20260101-000000-abcdef/..", "20260101-000000-ABCDEF", "x20260101-000000-abcdef", "20260101-000000-abcdef\n"} {
		if ValidRunID(id) {
			t.Errorf("%q accepted", id)
		}
	}
	p := recordsProject(t)
	if _, err := OpenFinished(context.Background(), p, "../../x"); err == nil || !strings.Contains(err.Error(), "not a run id") {
		t.Fatalf("OpenFinished with a path for an id: %v", err)
	}
}

func TestInterruptedApplyIsRestored(t *testing.T) {
	p := recordsProject(t)
	id, runDir := newRunDir(t, p)
	root := p.Root
	write(t, filepath.Join(root, "a.txt"), "a\n")
	write(t, filepath.Join(root, "b.txt"), "b\n")
	os.Chmod(filepath.Join(root, "a.txt"), 0o640)
	plan := applyPlan{Files: map[string]blob{
		"a.txt":     {data: []byte("A\n"), mode: 0o644},
		"b.txt":     {absent: true},
		"dir/c.txt": {data: []byte("C\n"), mode: 0o755},
	}}
	// Simulate a crash after the record and one write.
	crashAfterWrites = 1
	defer func() { crashAfterWrites = 0 }()
	writePlanUntilCrash(t, p, runDir, plan)
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "A\n" {
		t.Fatalf("the simulated crash did not happen after one write: a.txt = %q", b)
	}
	SweepStaleFor(t, p, id, StatusLanded)
	if got := readAll(t, root, "a.txt", "b.txt", "dir/c.txt"); got != "a.txt:a\nb.txt:b\ndir/c.txt:" {
		t.Fatalf("after restore: %q", got)
	}
	if st, _ := os.Stat(filepath.Join(root, "a.txt")); st.Mode().Perm() != 0o640 {
		t.Fatalf("restored a.txt has mode %v, want 0640", st.Mode().Perm())
	}
	if _, err := os.Stat(pendingPath(runDir)); err == nil {
		t.Fatal("the pending record survived the restore")
	}
	if left, _ := filepath.Glob(filepath.Join(root, ".*.sentinel-*")); len(left) != 0 {
		t.Fatalf("temp files left: %v", left)
	}
}

// SweepStaleFor gives run id a signed record with status and sweeps.
func SweepStaleFor(t *testing.T, p *Project, id string, status Status) {
	t.Helper()
	m := &Meta{ID: id, Status: status, Started: time.Now().UTC(), Landing: &Landing{Mode: ApplyWorktree}}
	if err := writeMeta(p.RunDir(id), m); err != nil {
		t.Fatal(err)
	}
	SweepStale(context.Background(), p)
}

// writePlanUntilCrash runs writePlan with os.Exit replaced by a panic.
func writePlanUntilCrash(t *testing.T, p *Project, runDir string, plan applyPlan) {
	t.Helper()
	exit = func(int) { panic("crash") }
	defer func() { exit = os.Exit }()
	defer func() { recover() }()
	writePlan(context.Background(), p, runDir, plan)
}

// forgeEnvelope writes v as a signed-looking record with a bad signature.
func forgeEnvelope(t *testing.T, path string, v any) {
	t.Helper()
	raw, _ := json.Marshal(v)
	b, _ := json.Marshal(envelope{Record: raw, Sig: strings.Repeat("ab", 32)})
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestForgedPendingApplyIsNeverRestored(t *testing.T) {
	t.Parallel()

	p := recordsProject(t)
	outside := t.TempDir()
	write(t, filepath.Join(outside, "victim.txt"), "precious\n")
	write(t, filepath.Join(p.Root, "main.txt"), "mine\n")

	// 1. Old-format records pointing root and backup anywhere.
	id1, dir1 := newRunDir(t, p)
	write(t, filepath.Join(dir1, "meta.json"), `{"id":"`+id1+`","status":"running"}`)
	write(t, filepath.Join(outside, "bk", "victim.txt"), "PWNED\n")
	write(t, pendingPath(dir1), `{"root":"`+outside+`","backup":"`+filepath.Join(outside, "bk")+`","paths":["victim.txt"]}`)

	// 2. New-format records for this very project with a bad signature:
	//    with the check gone, main.txt would get the planted backup.
	id2, dir2 := newRunDir(t, p)
	forgeEnvelope(t, filepath.Join(dir2, "meta.json"), Meta{ID: id2, Status: StatusRunning})
	write(t, filepath.Join(dir2, backupName, "0"), "PWNED\n")
	forgeEnvelope(t, pendingPath(dir2), pendingApply{Run: id2, Root: p.Root, Paths: []string{"main.txt"}, Temps: []string{".x"},
		Saved: map[string]savedOrigin{"main.txt": {Index: 0, SHA256: sha256Hex([]byte("PWNED\n")), Mode: 0o644}}})

	// 3. A genuine run record with a planted pending apply.
	id3, dir3 := newRunDir(t, p)
	if err := writeMeta(dir3, &Meta{ID: id3, Status: StatusLanded}); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir3, backupName, "0"), "PWNED\n")
	forgeEnvelope(t, pendingPath(dir3), pendingApply{Run: id3, Root: p.Root, Paths: []string{"main.txt"}, Temps: []string{".x"},
		Saved: map[string]savedOrigin{"main.txt": {Index: 0, SHA256: sha256Hex([]byte("PWNED\n")), Mode: 0o644}}})

	SweepStale(context.Background(), p)
	if b, _ := os.ReadFile(filepath.Join(outside, "victim.txt")); string(b) != "precious\n" {
		t.Fatalf("a planted pending apply wrote outside the project: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(p.Root, "main.txt")); string(b) != "mine\n" {
		t.Fatalf("a planted pending apply wrote into the project: %q", b)
	}
	metas, bad, err := ScanRuns(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(metas) != 1 || metas[0].ID != id3 || metas[0].Status != StatusLanded {
		t.Fatalf("verified runs: %+v", metas)
	}
	got := map[string]bool{}
	for _, u := range bad {
		got[u.Name] = true
		if !strings.Contains(u.String(), "unverified record, ignored") {
			t.Errorf("report: %s", u)
		}
	}
	if !got[id1] || !got[id2] || !got[id3] {
		t.Fatalf("unverified entries reported: %+v", bad)
	}
	// The forged meta of run 1 was not rewritten as "interrupted" either.
	if b, _ := os.ReadFile(filepath.Join(dir1, "meta.json")); !strings.Contains(string(b), `"running"`) {
		t.Fatalf("a forged record was acted on: %s", b)
	}
}

func TestGenuinePendingWithChangedBackupIsNotRestored(t *testing.T) {
	p := recordsProject(t)
	id, runDir := newRunDir(t, p)
	write(t, filepath.Join(p.Root, "a.txt"), "a\n")
	write(t, filepath.Join(p.Root, "b.txt"), "b\n")
	crashAfterWrites = 2
	defer func() { crashAfterWrites = 0 }()
	writePlanUntilCrash(t, p, runDir, applyPlan{Files: map[string]blob{
		"a.txt": {data: []byte("A\n"), mode: 0o644},
		"b.txt": {data: []byte("B\n"), mode: 0o644},
		"c.txt": {data: []byte("C\n"), mode: 0o644},
	}})
	// The saved original of a.txt is swapped for something else.
	write(t, filepath.Join(runDir, backupName, "0"), "PWNED\n")
	SweepStaleFor(t, p, id, StatusLanded)
	if b, _ := os.ReadFile(filepath.Join(p.Root, "a.txt")); string(b) == "PWNED\n" {
		t.Fatal("a changed backup was restored into the working tree")
	}
	// A genuine record copied to another run does not verify there.
	id2, dir2 := newRunDir(t, p)
	raw, _ := os.ReadFile(pendingPath(runDir))
	os.WriteFile(pendingPath(dir2), raw, 0o600)
	if _, err := readPending(p, id2); err == nil {
		t.Fatal("a pending record verified in another run's directory")
	}
}

func TestSymlinkedRunDirIsRefused(t *testing.T) {
	t.Parallel()

	p := recordsProject(t)
	elsewhere := t.TempDir()
	id := NewRunID(time.Now())
	// A genuine-looking record, but the run directory is a link elsewhere.
	os.MkdirAll(filepath.Join(elsewhere, id), 0o700)
	if err := writeMeta(filepath.Join(elsewhere, id), &Meta{ID: id, Status: StatusRunning}); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(elsewhere, id), p.RunDir(id)); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadMeta(p, id); err == nil {
		t.Fatal("a run record was read through a symlinked run directory")
	}
	SweepStale(context.Background(), p)
	metas, bad, _ := ScanRuns(p)
	if len(metas) != 0 || len(bad) != 1 || !strings.Contains(bad[0].Reason, "symlink") {
		t.Fatalf("a symlinked run directory: %+v %+v", metas, bad)
	}
	if b, _ := os.ReadFile(filepath.Join(elsewhere, id, "meta.json")); !strings.Contains(string(b), `"running"`) {
		t.Fatal("the sweep acted on a run through a symlinked directory")
	}
}

func TestApplyNeverWritesThroughSymlinks(t *testing.T) {
	t.Parallel()

	p := recordsProject(t)
	_, runDir := newRunDir(t, p)
	outside := t.TempDir()
	target := filepath.Join(outside, "secret.txt")
	write(t, target, "outside\n")
	os.Chmod(target, 0o600)
	write(t, filepath.Join(p.Root, "notes.txt"), "notes\n")
	// A link at every temp name the old code used, and a symlinked parent.
	os.Symlink(target, filepath.Join(p.Root, "notes.txt.sentinel-tmp"))
	os.Symlink(outside, filepath.Join(p.Root, "sub"))

	err := writePlan(context.Background(), p, runDir, applyPlan{Files: map[string]blob{"notes.txt": {data: []byte("edited\n"), mode: 0o644}}})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(p.Root, "notes.txt")); string(b) != "edited\n" {
		t.Fatalf("notes.txt = %q", b)
	}
	if b, _ := os.ReadFile(target); string(b) != "outside\n" {
		t.Fatalf("the apply wrote through the link at the old temp name: %q", b)
	}
	// A parent that is a symlink is refused, by the plan and by each write.
	err = writePlan(context.Background(), p, runDir, applyPlan{Files: map[string]blob{"sub/x.txt": {data: []byte("x\n"), mode: 0o644}}})
	if err == nil {
		t.Fatal("an apply through a symlinked directory succeeded")
	}
	root, _ := os.OpenRoot(p.Root)
	defer root.Close()
	if err := replaceFile(root, "sub/secret.txt", tempName("sub/secret.txt"), blob{data: []byte("x\n"), mode: 0o644}); err == nil {
		t.Fatal("a write through a symlinked directory succeeded")
	}
	if err := replaceFile(root, "sub/secret.txt", tempName("sub/secret.txt"), blob{absent: true}); err == nil {
		t.Fatal("a delete through a symlinked directory succeeded")
	}
	// A symlinked directory inside the project (here to its .git) is
	// refused too, though it does not lead outside.
	os.MkdirAll(filepath.Join(p.Root, ".git", "hooks"), 0o755)
	os.Symlink(filepath.Join(".git", "hooks"), filepath.Join(p.Root, "tools")) // relative: os.Root follows it
	if err := replaceFile(root, "tools/pre-commit", tempName("tools/pre-commit"), blob{data: []byte("x\n"), mode: 0o755}); err == nil {
		t.Fatal("a write through a symlinked directory inside the project succeeded")
	}
	if _, err := os.Lstat(filepath.Join(p.Root, ".git", "hooks", "pre-commit")); err == nil {
		t.Fatal("a hook was written through a symlinked directory")
	}
	// A target that became a symlink is not replaced.
	os.Remove(filepath.Join(p.Root, "notes.txt"))
	os.Symlink(target, filepath.Join(p.Root, "notes.txt"))
	if err := replaceFile(root, "notes.txt", tempName("notes.txt"), blob{data: []byte("y\n"), mode: 0o644}); err == nil {
		t.Fatal("a symlink target was replaced")
	}
	st, _ := os.Stat(target)
	if b, _ := os.ReadFile(target); string(b) != "outside\n" || st.Mode().Perm() != 0o600 {
		t.Fatalf("the file outside the project changed: %q %v", b, st.Mode().Perm())
	}
	if left, _ := filepath.Glob(filepath.Join(outside, "*")); len(left) != 1 {
		t.Fatalf("files appeared outside the project: %v", left)
	}
}

func TestShadowGitDirIsOutsideTheProject(t *testing.T) {
	p := recordsProject(t)
	id := NewRunID(time.Now())
	dir, err := shadowDir(p, id)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(dir, p.Root+string(filepath.Separator)) || !strings.HasPrefix(dir, os.Getenv("XDG_STATE_HOME")) {
		t.Fatalf("shadow git dir %s", dir)
	}
	if _, err := shadowDir(p, "../x"); err == nil {
		t.Fatal("a shadow dir for a path")
	}
}

func TestRunDirectoryWritesNeverFollowPlantedLinks(t *testing.T) {
	t.Parallel()

	p := recordsProject(t)
	id, dir := newRunDir(t, p)
	outside := filepath.Join(t.TempDir(), "bashrc")
	write(t, outside, "mine\n")
	for _, name := range []string{"meta.json.tmp", "PROGRESS.md.tmp", "DECISIONS.md.tmp", "FINAL_REPORT.md.tmp", "lock"} {
		os.Symlink(outside, filepath.Join(dir, name))
	}
	m := &Meta{ID: id, Status: StatusFailed}
	if err := writeMeta(dir, m); err != nil {
		t.Fatal(err)
	}
	writeReports(dir, m, nil)
	if l, err := lockRun(dir); err == nil {
		l.release()
		t.Error("a run lock was taken through a planted link")
	}
	if b, _ := os.ReadFile(outside); string(b) != "mine\n" {
		t.Fatalf("a write into the run directory went through a planted link: %q", b)
	}
}

func TestVerificationNeverUsesAGitDirFoundInTheRunDirectory(t *testing.T) {
	t.Parallel()

	ctx := context.Background()
	p := dirtyRepo(t)
	id, runDir := newRunDir(t, p)
	snap, err := TakeSnapshot(ctx, p, runDir)
	if err != nil {
		t.Fatal(err)
	}
	// A planted verify-shadow.git whose files are links to a file outside.
	outside := filepath.Join(t.TempDir(), "victim")
	write(t, outside, "precious\n")
	planted := filepath.Join(runDir, "verify-shadow.git")
	gitT(t, runDir, "init", "-q", "--bare", planted)
	os.Remove(filepath.Join(planted, "objects", "info", "alternates"))
	os.Symlink(outside, filepath.Join(planted, "objects", "info", "alternates"))
	os.Symlink(outside, filepath.Join(planted, "sentinel.index"))
	v := Verifier{Project: p, Snapshot: snap, RunID: id, RunDir: runDir, Checks: []Check{{Command: "true", Source: "flag"}}, Mode: sandbox.ModeOff}
	if _, err := v.Verify(ctx, filepath.Join(runDir, "none.diff")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "precious\n" {
		t.Fatalf("verification wrote through a planted git dir: %q", b)
	}
}
