//go:build unix

package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// A chown in place (root's mcp server gave the person's Makefile to
// another user: 31-ipatk17m) is in the end report: a line of what
// changed besides git, and the Makefile flagged DANGEROUS and as a file
// that runs code later, as a change of its content is.
func TestInPlaceReportsAMakefileGivenToAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give files away")
	}
	root := t.TempDir()
	mk := filepath.Join(root, "Makefile")
	if err := os.WriteFile(mk, []byte("all:\n\techo hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(mk, 4321, 4321); err != nil {
		t.Fatal(err)
	}
	s, err := checkpoint.OpenIn(t.TempDir(), root)
	if err != nil {
		t.Fatal(err)
	}
	before, err := checkpoint.Take(s, root, checkpoint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(mk, 4322, 4321); err != nil {
		t.Fatal(err)
	}
	after, err := checkpoint.Take(s, root, checkpoint.Options{Prev: before})
	if err != nil {
		t.Fatal(err)
	}
	ch := withCheckpoint(InPlaceChange{}, checkpoint.Diff(before, after), before, after)
	if len(ch.Changes) != 1 || ch.Changes[0] != "owner 4321:4321→4322:4321 Makefile" {
		t.Errorf("changes %q, want the Makefile's owner change", ch.Changes)
	}
	if !strings.Contains(ch.Stat, "owner 4321:4321→4322:4321 Makefile") {
		t.Errorf("stat %q does not tell the owner change", ch.Stat)
	}
	if len(ch.Flagged) != 1 || !strings.HasPrefix(ch.Flagged[0].Reason, dangerousPrefix+"given to another user") ||
		!strings.Contains(ch.Flagged[0].Reason, "make") {
		t.Errorf("flagged %+v, want Makefile DANGEROUS and as running code later", ch.Flagged)
	}
}
