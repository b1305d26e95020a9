package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// What the coder changed in the git dir that no commit writes (a
// MERGE_MSG the next commit takes, an lfs/ object checkout writes into a
// file, an ORIG_HEAD) is kept for the terminal's last words as the flagged
// files are (ipatk13): when the journal cannot be written, or a TUI took
// the screen while it was told, the summary is the one place it still
// reaches the person. Before, it was only ever an event.
func TestTheGitDirsChangesReachTheSummary(t *testing.T) {
	t.Parallel()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	gitInit(t, root)
	os.WriteFile(filepath.Join(root, "a"), []byte("a\n"), 0o644)
	gitRun(t, root, "add", "a")
	gitRun(t, root, "commit", "-qm", "one")
	gd := filepath.Join(root, ".git")
	p := &Project{Root: root, GitDir: gd}
	g, err := newGitGuard(p, filepath.Join(t.TempDir(), "run.git"))
	if err != nil {
		t.Fatal(err)
	}
	for rel, body := range map[string]string{
		"MERGE_MSG":              "Merge: the coder's words\n",
		"lfs/objects/ab/cd/abcd": "not the file\n",
	} {
		f := filepath.Join(gd, rel)
		os.MkdirAll(filepath.Dir(f), 0o755)
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g.finish(context.Background(), nil, func(journal.Lane, journal.Kind, string, any) {})
	told := &InPlaceChanged{GitDir: g.Warned()}
	got := told.GitDirText()
	for _, w := range []string{
		"new " + filepath.Join(gd, "MERGE_MSG") + " — your next `git commit` takes it as its message",
		"new " + filepath.Join(gd, "lfs") + "/ — git LFS",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("the summary does not name %q:\n%s", w, got)
		}
	}
	if strings.Contains(got, "in place: ") {
		t.Errorf("the summary's lines keep the journal's prefix:\n%s", got)
	}
	if (&InPlaceChanged{}).GitDirText() != "" || (*gitGuard)(nil).Warned() != nil {
		t.Error("a run with nothing in the git dir has a git-dir section")
	}
}
