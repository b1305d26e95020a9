//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// reftableFixtures are git 2.55's reftable stacks (internal/gitdir's
// testdata/reftable/make.sh): "before", and "replaced" with a replace ref.
const reftableFixtures = "../../internal/gitdir/testdata/reftable"

// A command that writes a replace ref into a reftable repository (which
// has no refs/replace directory to make read-only) is named in the answer,
// as one in packed-refs is, whatever the host's git can do with reftable.
func TestExecReplaceRefInReftableIsNamed(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	app := f.rw
	gd := filepath.Join(app, ".git")
	copyTree(t, filepath.Join(reftableFixtures, "before"), gd)
	for _, d := range []string{"objects", "refs"} {
		os.MkdirAll(filepath.Join(gd, d), 0o755)
	}
	write(t, filepath.Join(gd, "config"), "[core]\n\trepositoryformatversion = 1\n\tbare = false\n[extensions]\n\trefstorage = reftable\n")
	copyTree(t, filepath.Join(reftableFixtures, "replaced", "reftable"), filepath.Join(app, "staged"))
	var ref string
	b, err := os.ReadFile(filepath.Join(reftableFixtures, "replaced", "refs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "refs/replace/") {
			ref, _, _ = strings.Cut(line, " ")
		}
	}
	listBefore, _ := os.ReadFile(filepath.Join(gd, "reftable", "tables.list"))
	cfg := mustConfig(t, `exec_mode = "unrestricted"
[[paths]]
path = "`+app+`"
access = "rw"
`)
	cs, _ := stdioSession(t, cfg, Options{Helper: bin})
	got := mustAllow(t, cs, "exec", map[string]any{"command": "d=$(ls -d .gi?)/reftable; cp staged/* $d/ && echo WRITTEN; echo done"})
	if !strings.Contains(got, "done") {
		t.Fatalf("the command did not run: %s", got)
	}
	switch {
	case !strings.Contains(got, "WRITTEN"): // refused: the stack must be as it was
		if b, _ := os.ReadFile(filepath.Join(gd, "reftable", "tables.list")); !strings.Contains(string(listBefore), strings.TrimSpace(string(b))) {
			t.Errorf("the write was refused, yet tables.list changed: %s", b)
		}
	case !strings.Contains(got, "the replace ref "+ref+" (in reftable)"):
		t.Errorf("the answer does not name the replace ref %s:\n%s", ref, got)
	}
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
}
