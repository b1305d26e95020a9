package runner

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// A checkpoint that takes longer than a moment says what it does (here
// at once: it is told after 0), before the coder acts and at the end.
func TestASlowCheckpointSaysWhatItDoes(t *testing.T) {
	t.Parallel()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	gitInit(t, root)
	p := &Project{Root: root, GitDir: filepath.Join(root, ".git")}
	var said []string
	emit := func(_ journal.Lane, _ journal.Kind, text string, _ any) { said = append(said, text) }
	c := takeInPlaceCheckpointTelling(context.Background(), p, NewRunID(time.Now()), "exec: test", checkpointLimitsForTest, 0, emit)
	if c == nil {
		t.Fatalf("no checkpoint: %q", said)
	}
	if _, _, err := c.end(nil, emit); err != nil {
		t.Fatal(err)
	}
	all := strings.Join(said, "\n")
	for _, want := range []string{"in place: taking a checkpoint of " + root, "in place: recording what the run changed in " + root} {
		if !strings.Contains(all, want) {
			t.Errorf("nothing says %q:\n%s", want, all)
		}
	}
}
