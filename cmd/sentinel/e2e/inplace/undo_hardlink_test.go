//go:build unix

package inplace

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// Two names of one file before the run come back as one file after undo,
// whether the coder rewrote the file through one name (both names see it)
// or replaced one name by a new file (sed -i): undo writes files back as
// new files, and without the relink they were two copies.
func TestExecUndoPutsHardLinksBack(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	pairs := [][2]string{{"inplace.txt", "inplace-link.txt"}, {"renamed.txt", "sub/renamed-link.txt"}}
	for _, p := range pairs {
		e2etest.WriteFile(t, filepath.Join(dir, p[0]), p[0]+" before the run\n")
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p[1])), 0o755)
		if err := os.Link(filepath.Join(dir, p[0]), filepath.Join(dir, p[1])); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"HOME=" + execHome(t), "XDG_STATE_HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + t.TempDir()}
	want := placeHash(t, dir)
	script := "echo run >> inplace.txt && echo run > renamed.new && cat renamed.txt >> renamed.new && mv renamed.new renamed.txt"
	if res := e2etest.Sentinel(t, dir, env, "exec", "--plain", "--", "sh", "-c", script); res.Code != 0 {
		t.Fatalf("exec: exit %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	res := e2etest.Sentinel(t, dir, env, "undo")
	if res.Code != 0 {
		t.Fatalf("undo: exit %d\n%s%s", res.Code, res.Stdout, res.Stderr)
	}
	if got := placeHash(t, dir); got != want {
		t.Fatalf("undo did not restore the project:\nwant\n%s\ngot\n%s", want, got)
	}
	ino := func(p string) uint64 {
		fi, err := os.Stat(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		return fi.Sys().(*syscall.Stat_t).Ino
	}
	for _, p := range pairs {
		if ino(p[0]) != ino(p[1]) {
			t.Errorf("%s and %s were one file before the run, two after undo\n%s", p[0], p[1], res.Stdout)
		}
	}
	if !strings.Contains(res.Stdout, "hard-link ") {
		t.Errorf("undo does not say it joined the links again:\n%s", res.Stdout)
	}
}
