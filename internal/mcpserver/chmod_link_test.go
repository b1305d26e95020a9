//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"testing"
)

// chmod holds to what chown does: a file with another name (a hard link)
// outside the configured paths is refused, and its mode stays as it was.
func TestChmodRefusesAHardLinkToOutside(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs, _ := stdioSession(t, mustConfig(t, f.config("")), Options{})
	hard := filepath.Join(f.rw, "hard")
	if err := os.Link(f.secret, hard); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	before, err := os.Stat(f.secret)
	if err != nil {
		t.Fatal(err)
	}
	mustRefuse(t, cs, "chmod", map[string]any{"path": hard, "mode": "777"}, ClassPathNotAllowed)
	if after, _ := os.Stat(f.secret); after.Mode() != before.Mode() {
		t.Fatalf("the outside file's mode changed: %s -> %s", before.Mode(), after.Mode())
	}
}
