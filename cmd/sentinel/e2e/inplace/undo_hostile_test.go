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

// A hostile coder under exec, on both backends, deletes tracked,
// untracked and ignored files of every kind — names that are not UTF-8
// (a directory so named, whose content io/fs once refused to list), with
// a newline, a tab or a leading dash; symlinks, dangling ones too; empty
// and read-only directories; a sticky one — swaps a file for a directory
// and a directory for a file, rewrites a file inside the non-UTF-8
// directory and makes the project's own directory world-writable. The
// end of the run reports the last two; 'sentinel undo' puts the project
// back byte for byte, its own mode included, and leaves a fifo alone.
func TestExecUndoRestoresEveryKindOfEntry(t *testing.T) {
	for _, backend := range inPlaceBackends(t) {
		t.Run(backend, func(t *testing.T) {
			dir := e2etest.ScratchRepo(t)
			e2etest.WriteFile(t, filepath.Join(dir, ".gitignore"), "build/\n*.log\n")
			e2etest.WriteFile(t, filepath.Join(dir, "run.sh"), "#!/bin/sh\necho run\n")
			if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o755); err != nil {
				t.Fatal(err)
			}
			e2etest.Git(t, dir, "add", ".gitignore", "run.sh")
			e2etest.Git(t, dir, "commit", "-qm", "more")
			for rel, body := range map[string]string{
				"build/out.o":         "\x00object",
				"build/bad\xfd/k.txt": "kept\n",
				"odd/sp ace":          "a",
				"odd/new\nline":       "b",
				"odd/tab\tq":          "c",
				"odd/-dash":           "d",
				"odd/\xff\xfe":        "e",
				"odd/\xff\xfd":        "f",
				"x.log":               "log\n",
				"fileToDir":           "was a file\n",
				"dirToFile/g":         "was in a dir\n",
				"rodir/i":             "in a read-only dir\n",
			} {
				e2etest.WriteFile(t, filepath.Join(dir, rel), body)
			}
			for _, d := range []string{"empty/nested", "sticky"} {
				if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for link, target := range map[string]string{"link": "run.sh", "abslink": "/etc/passwd", "dangling": "nowhere", "odd/l\xfe": "to\xfe"} {
				if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
					t.Fatal(err)
				}
			}
			for p, m := range map[string]os.FileMode{"sticky": 0o1777, "rodir": 0o555, "odd/sp ace": 0o600, "x.log": 0o640} {
				if err := os.Chmod(filepath.Join(dir, p), m); err != nil {
					t.Fatal(err)
				}
			}
			if err := syscall.Mkfifo(filepath.Join(dir, "build", "fifo"), 0o600); err != nil {
				t.Fatal(err)
			}
			env := []string{"HOME=" + execHome(t), "XDG_STATE_HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + t.TempDir()}
			want := placeHash(t, dir)

			script := strings.Join([]string{
				`echo rewritten > "build/bad$(printf '\375')/k.txt"`,
				"chmod u+w rodir",
				"rm -rf main.txt notes.md run.sh link abslink dangling odd empty sticky rodir x.log build/out.o",
				"rm fileToDir && mkdir fileToDir && echo z > fileToDir/z",
				"rm -r dirToFile && echo now-a-file > dirToFile",
				"mkdir -p made/deep && echo new > made/deep/new.txt",
				"chmod 777 .",
			}, " && ")
			res := e2etest.Sentinel(t, dir, env, "exec", "--plain", "--sandbox", backend, "--", "sh", "-c", script)
			if res.Code != 0 {
				t.Fatalf("exec: exit %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
			}
			for _, w := range []string{"mode 0755→0777 .", "M build/bad"} {
				if !strings.Contains(res.Stderr, w) {
					t.Errorf("the end of the run does not report %q:\n%s", w, res.Stderr)
				}
			}
			undo := e2etest.Sentinel(t, dir, env, "undo")
			if undo.Code != 0 {
				t.Fatalf("undo: exit %d\n%s%s", undo.Code, undo.Stdout, undo.Stderr)
			}
			if got := placeHash(t, dir); got != want {
				t.Fatalf("undo did not restore the project byte for byte:\nwant\n%q\ngot\n%q\n%s", want, got, undo.Stdout)
			}
		})
	}
}
