package inplace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// Through a launcher shim, not `sentinel exec` (h/ipfix12): the coder a
// shim launched deletes tracked (with uncommitted work, and staged),
// untracked and ignored files, an executable, a symlink and empty
// directories; 'sentinel undo' puts the project back byte for byte —
// content, mode, symlink target, empty directories — and leaves the
// person's checkout (index, HEAD, status) as it was.
func TestShimUndoRestoresThePlace(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	e2etest.WriteFile(t, filepath.Join(dir, ".gitignore"), "build/\nnode_modules/\n")
	e2etest.WriteFile(t, filepath.Join(dir, "run.sh"), "#!/bin/sh\necho run\n")
	e2etest.WriteFile(t, filepath.Join(dir, "build", "cache", "obj.o"), "\x00object")
	e2etest.WriteFile(t, filepath.Join(dir, "build", "tool"), "#!/bin/sh\necho tool\n")
	for p, mode := range map[string]os.FileMode{"run.sh": 0o755, "build/tool": 0o750, "build/cache/obj.o": 0o600} {
		if err := os.Chmod(filepath.Join(dir, p), mode); err != nil {
			t.Fatal(err)
		}
	}
	e2etest.Git(t, dir, "add", ".gitignore", "run.sh")
	for _, d := range []string{"empty", "build/empty/deeper"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o750); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"link": "main.txt", "build/out": "../run.sh", "dangling": "no/such/file"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "node_modules", ".bin")
	e2etest.WriteFile(t, filepath.Join(bin, "claude"), "#!/bin/sh\n"+strings.Join([]string{
		"rm main.txt staged.txt notes.md run.sh link dangling .gitignore",
		"rm -r build empty",
		"echo by-the-coder > made.txt",
		"touch ran-inside",
	}, " && ")+"\n")
	if err := os.Chmod(filepath.Join(bin, "claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + execHome(t), "XDG_STATE_HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + t.TempDir(), "PATH=" + bin + ":" + os.Getenv("PATH")}
	want, wantGit := placeHash(t, dir), e2etest.Checkout(t, dir)

	res := e2etest.Sentinel(t, dir, env, "shim", "--dir", t.TempDir(), "claude")
	if _, err := os.Stat(filepath.Join(dir, "ran-inside")); err != nil {
		t.Fatalf("the shim did not run the coder (exit %d): %v\n%s\n%s", res.Code, err, res.Stdout, res.Stderr)
	}
	if err := os.Remove(filepath.Join(dir, "ran-inside")); err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{"main.txt", "build", "empty", "link"} {
		if _, err := os.Lstat(filepath.Join(dir, gone)); err == nil {
			t.Fatalf("the coder did not delete %s: the test proves nothing\n%s", gone, res.Stderr)
		}
	}
	undo := e2etest.Sentinel(t, dir, env, "undo")
	if undo.Code != 0 {
		t.Fatalf("undo after a shim launch: exit %d\n%s%s", undo.Code, undo.Stdout, undo.Stderr)
	}
	if got := placeHash(t, dir); got != want {
		t.Fatalf("undo did not restore the project byte for byte:\nwant\n%s\ngot\n%s\n%s", want, got, undo.Stdout)
	}
	if got := e2etest.Checkout(t, dir); got != wantGit {
		t.Fatalf("the person's checkout changed:\nwant\n%s\ngot\n%s", wantGit, got)
	}
}
