package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// snapshotBase makes a repository whose one commit has files at several
// depths, an executable, a symlink, names that sort next to a directory's,
// ignore rules at two levels, eol attributes and a tracked file its
// .gitignore matches.
func snapshotBase(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	gitT(t, dir, "init", "-q")
	for name, body := range map[string]string{
		"a.txt":             "a\n",
		"b.txt":             "b\n",
		"dir/c.txt":         "c\n",
		"dir/sub/d.txt":     "d\n",
		"dir/sub/e.txt":     "e\n",
		"gone/only.txt":     "only\n",
		"sp ace.txt":        "space\n",
		"ünï.txt":           "unicode\n",
		"foo.txt":           "foo\n",
		"foo-bar":           "foo-bar\n",
		"foo/x":             "x\n",
		"w.auto":            "lf\n",
		"nested/keep.txt":   "keep\n",
		"nested/.gitignore": "*.tmp\n",
		".gitignore":        "*.log\nbuild/\n",
		".gitattributes":    "*.crlf text eol=crlf\n*.auto text=auto\n",
		"tracked.log":       "tracked though ignored\n",
		"tool.sh":           "#!/bin/sh\n",
	} {
		write(t, filepath.Join(dir, name), body)
	}
	chmod(t, filepath.Join(dir, "tool.sh"), 0o755)
	symlink(t, "a.txt", filepath.Join(dir, "link"))
	gitT(t, dir, "add", "-A")
	gitT(t, dir, "add", "-f", "tracked.log")
	gitT(t, dir, "commit", "-qm", "base")
	return dir
}

func chmod(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, path string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}

func remove(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		if err := os.RemoveAll(filepath.Join(dir, n)); err != nil {
			t.Fatal(err)
		}
	}
}

// gitMay runs git in dir as gitT does and returns its error instead of
// failing.
func gitMay(dir string, args ...string) error { return gitTestCmd(dir, args...).Run() }

// racilyChanged rewrites name with content of the same size while its
// stat data still matches the index's entry, which was recorded no earlier
// than the index itself was written: only git's racy-clean check (a content
// comparison) can see the change.
func racilyChanged(t *testing.T, dir, name, body string) {
	t.Helper()
	gitT(t, dir, "config", "core.trustctime", "false")
	full := filepath.Join(dir, name)
	future := time.Now().Add(time.Hour).Truncate(time.Second)
	if err := os.Chtimes(full, future, future); err != nil {
		t.Fatal(err)
	}
	gitT(t, dir, "update-index", "--refresh")
	f, err := os.OpenFile(full, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(body)
	f.Close()
	if err := os.Chtimes(full, future, future); err != nil {
		t.Fatal(err)
	}
}

type snapshotCase struct {
	name  string
	setup func(t *testing.T, dir string)
	// declined: the quick path must leave this one to `git add -A`.
	declined bool
	// same: the snapshot's tree is HEAD's.
	same bool
	// addFails: `git add -A` refuses the work tree, and so must the snapshot.
	addFails bool
}

var snapshotCases = []snapshotCase{
	{name: "clean", same: true, setup: func(t *testing.T, dir string) {}},
	{name: "stat changed, content not", same: true, setup: func(t *testing.T, dir string) {
		old := time.Now().Add(-time.Hour)
		os.Chtimes(filepath.Join(dir, "a.txt"), old, old)
		write(t, filepath.Join(dir, "b.txt"), "b\n")
	}},
	{name: "modified", setup: func(t *testing.T, dir string) {
		write(t, filepath.Join(dir, "a.txt"), "a\nmore\n")
		write(t, filepath.Join(dir, "dir/sub/d.txt"), "d2\n")
	}},
	{name: "deleted, a directory emptied", setup: func(t *testing.T, dir string) {
		remove(t, dir, "b.txt", "gone/only.txt", "dir/sub/e.txt")
	}},
	{name: "staged only", setup: func(t *testing.T, dir string) {
		write(t, filepath.Join(dir, "a.txt"), "staged\n")
		write(t, filepath.Join(dir, "new/staged.txt"), "new\n")
		gitT(t, dir, "add", "a.txt", "new/staged.txt")
	}},
	{name: "staged then reverted in the work tree", same: true, setup: func(t *testing.T, dir string) {
		write(t, filepath.Join(dir, "a.txt"), "staged\n")
		gitT(t, dir, "add", "a.txt")
		write(t, filepath.Join(dir, "a.txt"), "a\n")
	}},
	{name: "staged, then edited further", setup: func(t *testing.T, dir string) {
		write(t, filepath.Join(dir, "a.txt"), "staged\n")
		write(t, filepath.Join(dir, "n.txt"), "n1\n")
		gitT(t, dir, "add", "a.txt", "n.txt")
		write(t, filepath.Join(dir, "a.txt"), "staged\nand more\n")
		write(t, filepath.Join(dir, "n.txt"), "n2\n")
	}},
	{name: "staged deletion, file back", setup: func(t *testing.T, dir string) {
		gitT(t, dir, "rm", "-q", "b.txt", "dir/c.txt")
		write(t, filepath.Join(dir, "b.txt"), "b again\n")
	}},
	{name: "untracked in new nested directories", setup: func(t *testing.T, dir string) {
		write(t, filepath.Join(dir, "new/deep/er/f.txt"), "f\n")
		write(t, filepath.Join(dir, "dir/sub/new.txt"), "n\n")
		write(t, filepath.Join(dir, "top.txt"), "t\n")
		write(t, filepath.Join(dir, "empty"), "")
		os.MkdirAll(filepath.Join(dir, "emptydir/inner"), 0o755)
	}},
	{name: "ignored files at every level", setup: func(t *testing.T, dir string) {
		write(t, filepath.Join(dir, "x.log"), "x\n")
		write(t, filepath.Join(dir, "build/out.txt"), "o\n")
		write(t, filepath.Join(dir, "nested/y.tmp"), "y\n")
		write(t, filepath.Join(dir, "nested/deeper/z.tmp"), "z\n")
		write(t, filepath.Join(dir, "nested/deeper/ok.txt"), "ok\n")
		write(t, filepath.Join(dir, "nested/ok.txt"), "ok\n")
		write(t, filepath.Join(dir, ".git/info/exclude"), "secret.txt\n")
		write(t, filepath.Join(dir, "secret.txt"), "s\n")
		write(t, filepath.Join(dir, "tracked.log"), "tracked, edited\n")
	}},
	{name: "untracked from the index, ignored or not", setup: func(t *testing.T, dir string) {
		gitT(t, dir, "rm", "-q", "--cached", "b.txt", "tracked.log")
	}},
	{name: "exec bit flipped", setup: func(t *testing.T, dir string) {
		chmod(t, filepath.Join(dir, "a.txt"), 0o755)
		chmod(t, filepath.Join(dir, "tool.sh"), 0o644)
		write(t, filepath.Join(dir, "run.sh"), "#!/bin/sh\n")
		chmod(t, filepath.Join(dir, "run.sh"), 0o700)
	}},
	{name: "symlinks added and changed", setup: func(t *testing.T, dir string) {
		remove(t, dir, "link")
		symlink(t, "b.txt", filepath.Join(dir, "link"))
		symlink(t, "dir/c.txt", filepath.Join(dir, "new/link2"))
		symlink(t, "nowhere\nat all", filepath.Join(dir, "dangling"))
	}},
	{name: "file to symlink and back", setup: func(t *testing.T, dir string) {
		remove(t, dir, "b.txt", "link")
		symlink(t, "a.txt", filepath.Join(dir, "b.txt"))
		write(t, filepath.Join(dir, "link"), "a file now\n")
	}},
	{name: "file to directory", setup: func(t *testing.T, dir string) {
		remove(t, dir, "a.txt", "foo.txt")
		write(t, filepath.Join(dir, "a.txt/inner.txt"), "inner\n")
		write(t, filepath.Join(dir, "foo.txt/deep/x"), "x\n")
	}},
	{name: "directory to file", setup: func(t *testing.T, dir string) {
		remove(t, dir, "dir/sub", "gone")
		write(t, filepath.Join(dir, "dir/sub"), "a file now\n")
		write(t, filepath.Join(dir, "gone"), "a file now\n")
	}},
	{name: "directory to symlink", setup: func(t *testing.T, dir string) {
		remove(t, dir, "dir/sub")
		symlink(t, "../foo", filepath.Join(dir, "dir/sub"))
	}},
	{name: "names that sort around a directory's", setup: func(t *testing.T, dir string) {
		write(t, filepath.Join(dir, "foo/y"), "y\n")
		write(t, filepath.Join(dir, "foo.a"), "fa\n")
		write(t, filepath.Join(dir, "foo0"), "f0\n")
		write(t, filepath.Join(dir, "foo/x"), "x2\n")
	}},
	{name: "strange names", setup: func(t *testing.T, dir string) {
		for _, n := range []string{"new\nline.txt", "tab\tname", "quote\"name", `back\slash`, `"leading quote`, "ünïcödé/文件.txt", "sp ace dir/f f.txt", " lead", "trail "} {
			write(t, filepath.Join(dir, n), n+"\n")
		}
		write(t, filepath.Join(dir, "sp ace.txt"), "changed\n")
		write(t, filepath.Join(dir, "ünï.txt"), "changed\n")
	}},
	{name: "eol conversion of new files and LF edits", setup: func(t *testing.T, dir string) {
		write(t, filepath.Join(dir, "n.crlf"), "a\r\nb\r\n")
		write(t, filepath.Join(dir, "n.auto"), "a\r\nb\r\n")
		write(t, filepath.Join(dir, "sub/m.crlf"), "lf only\n")
		write(t, filepath.Join(dir, "w.auto"), "lf\nmore lf\n")
	}},
	{name: "autocrlf in the repository's config", setup: func(t *testing.T, dir string) {
		gitT(t, dir, "config", "core.autocrlf", "input")
		write(t, filepath.Join(dir, "new.txt"), "a\r\nb\r\n")
	}},
	{name: "staged, then edited again in the index's second", setup: func(t *testing.T, dir string) {
		editedInTheIndexSecond(t, dir, map[string][2]string{"n.txt": {"n1\n", "n2\n"}, "dir/c.txt": {"s\n", "w\n"}})
	}},
	{name: "edited in the index's second, nothing staged", setup: func(t *testing.T, dir string) {
		editedInTheIndexSecond(t, dir, map[string][2]string{"a.txt": {"a\n", "z\n"}})
	}},
	{name: "racily clean tracked file", setup: func(t *testing.T, dir string) {
		racilyChanged(t, dir, "a.txt", "z\n")
	}},
	{name: "racily clean staged file", setup: func(t *testing.T, dir string) {
		write(t, filepath.Join(dir, "r.txt"), "aaaa\n")
		gitT(t, dir, "add", "r.txt")
		racilyChanged(t, dir, "r.txt", "bbbb\n")
	}},
	{name: "intent to add", setup: func(t *testing.T, dir string) {
		write(t, filepath.Join(dir, "i.txt"), "i\n")
		write(t, filepath.Join(dir, "j.txt"), "j\n")
		gitT(t, dir, "add", "-N", "i.txt", "j.txt")
		remove(t, dir, "j.txt")
	}},
	{name: "assume unchanged and skip worktree", same: true, setup: func(t *testing.T, dir string) {
		gitT(t, dir, "update-index", "--assume-unchanged", "a.txt")
		gitT(t, dir, "update-index", "--skip-worktree", "b.txt", "dir/c.txt")
		write(t, filepath.Join(dir, "a.txt"), "edited anyway\n")
		remove(t, dir, "b.txt")
		write(t, filepath.Join(dir, "dir/c.txt"), "edited anyway\n")
	}},
	{name: "merge conflicts", setup: func(t *testing.T, dir string) {
		gitT(t, dir, "checkout", "-q", "-b", "other")
		write(t, filepath.Join(dir, "a.txt"), "other\n")
		write(t, filepath.Join(dir, "b.txt"), "other\n")
		gitT(t, dir, "commit", "-qam", "other")
		gitT(t, dir, "checkout", "-q", "main")
		write(t, filepath.Join(dir, "a.txt"), "main\n")
		remove(t, dir, "b.txt")
		gitT(t, dir, "commit", "-qam", "main")
		if gitMay(dir, "merge", "-q", "other") == nil {
			t.Fatal("the merge did not conflict")
		}
	}},
	{name: "split index", setup: func(t *testing.T, dir string) {
		gitT(t, dir, "update-index", "--split-index")
		write(t, filepath.Join(dir, "a.txt"), "a2\n")
		write(t, filepath.Join(dir, "new.txt"), "new\n")
		editedInTheIndexSecond(t, dir, map[string][2]string{"b.txt": {"s\n", "w\n"}})
	}},
	{name: "submodule with uncommitted edits", same: true, setup: func(t *testing.T, dir string) {
		sub := submodule(t, dir)
		write(t, filepath.Join(sub, "v.txt"), "v2\n")
		write(t, filepath.Join(sub, "untracked.txt"), "u\n")
	}},
	// Left to `git add -A`:
	{name: "tracked file gets CRs", declined: true, setup: func(t *testing.T, dir string) {
		write(t, filepath.Join(dir, "w.auto"), "crlf\r\n")
	}},
	{name: "CRLF blob under text=auto, edited", declined: true, setup: func(t *testing.T, dir string) {
		// add keeps the CRs of a file whose index copy has them; hash-object
		// would take them out.
		write(t, filepath.Join(dir, "crlf.auto"), "x\r\ny\r\n")
		blob := gitT(t, dir, "hash-object", "-w", "--no-filters", "crlf.auto")
		gitT(t, dir, "update-index", "--add", "--cacheinfo", "100644,"+blob+",crlf.auto")
		gitT(t, dir, "commit", "-qm", "a CRLF blob")
		write(t, filepath.Join(dir, "crlf.auto"), "x\r\ny\r\nz\r\n")
	}},
	{name: ".gitattributes edited", declined: true, setup: func(t *testing.T, dir string) {
		write(t, filepath.Join(dir, ".gitattributes"), "*.txt text eol=crlf\n")
		write(t, filepath.Join(dir, "a.txt"), "a\r\n")
	}},
	{name: "nested repository", declined: true, setup: func(t *testing.T, dir string) {
		nestedRepo(t, dir)
	}},
	{name: "submodule moved on", declined: true, setup: func(t *testing.T, dir string) {
		sub := submodule(t, dir)
		write(t, filepath.Join(sub, "v.txt"), "v2\n")
		gitT(t, sub, "commit", "-qam", "v2")
	}},
	{name: ".git in another spelling", declined: true, addFails: true, setup: func(t *testing.T, dir string) {
		write(t, filepath.Join(dir, "x/.GIT/config"), "[core]\n")
	}},
	gitmodulesLink(".gitmodules"),
	gitmodulesLink("sub/.GitModules"),
	gitmodulesLink("gitmod~1"),
	gitmodulesLink("gi7eb~12"),
	gitmodulesLink(".gitmodules. "),
	gitmodulesLink(".gitmodules::$DATA"),
	gitmodulesLink(".git\u200cmodules"),
	{name: ".gitattributes behind skip-worktree", declined: true, setup: func(t *testing.T, dir string) {
		gitT(t, dir, "update-index", "--skip-worktree", ".gitattributes")
		remove(t, dir, ".gitattributes")
		write(t, filepath.Join(dir, "n.crlf"), "a\r\nb\r\n")
	}},
	{name: "split index, core.fileMode off", declined: true, setup: func(t *testing.T, dir string) {
		gitT(t, dir, "update-index", "--split-index")
		gitT(t, dir, "config", "core.fileMode", "false")
		// More than splitIndex.maxPercentChange of the entries: an add
		// that kept the split would write a new shared index.
		for i := 0; i < 10; i++ {
			write(t, filepath.Join(dir, fmt.Sprintf("new%d.txt", i)), "new\n")
		}
		write(t, filepath.Join(dir, "a.txt"), "a2\n")
	}},
	{name: "sparse checkout", declined: true, setup: func(t *testing.T, dir string) {
		gitT(t, dir, "sparse-checkout", "set", "--cone", "dir")
		write(t, filepath.Join(dir, "dir/c.txt"), "c2\n")
		write(t, filepath.Join(dir, "dir/sub/new.txt"), "new\n")
		write(t, filepath.Join(dir, "nested/keep.txt"), "outside the cone, written anyway\n")
	}},
	{name: "sparse index", declined: true, setup: func(t *testing.T, dir string) {
		gitT(t, dir, "sparse-checkout", "set", "--cone", "--sparse-index", "dir")
		write(t, filepath.Join(dir, "dir/c.txt"), "c2\n")
		remove(t, dir, "dir/sub/e.txt")
	}},
	{name: "sparse checkout, a new file outside it", declined: true, addFails: true, setup: func(t *testing.T, dir string) {
		gitT(t, dir, "sparse-checkout", "set", "--cone", "dir")
		write(t, filepath.Join(dir, "gone/other.txt"), "untracked outside the cone\n")
	}},
	{name: "core.symlinks off, a symlink made anyway", setup: func(t *testing.T, dir string) {
		gitT(t, dir, "config", "core.symlinks", "false")
		symlink(t, "a.txt", filepath.Join(dir, "new-link"))
	}},
	{name: "core.symlinks off, a symlink checked out as a file, edited", declined: true, setup: func(t *testing.T, dir string) {
		gitT(t, dir, "config", "core.symlinks", "false")
		remove(t, dir, "link")
		write(t, filepath.Join(dir, "link"), "b.txt")
	}},
	{name: "core.fileMode off", declined: true, setup: func(t *testing.T, dir string) {
		gitT(t, dir, "config", "core.fileMode", "false")
		write(t, filepath.Join(dir, "run.sh"), "#!/bin/sh\n")
		chmod(t, filepath.Join(dir, "run.sh"), 0o755)
	}},
	{name: "every file gone", declined: true, setup: func(t *testing.T, dir string) {
		gitT(t, dir, "rm", "-rq", "--cached", ".")
		gitT(t, dir, "commit", "-qm", "untrack everything")
		gitT(t, dir, "reset", "-q", "HEAD~")
		for _, e := range []string{"a.txt", "b.txt", "dir", "gone", "sp ace.txt", "ünï.txt", "foo.txt", "foo-bar", "foo", "w.auto", "nested", ".gitignore", ".gitattributes", "tracked.log", "tool.sh", "link"} {
			remove(t, dir, e)
		}
	}},
}

// nestedRepo makes a repository of one commit at dir/vendored, inside the
// work tree at dir, and returns its path.
func nestedRepo(t *testing.T, dir string) string {
	t.Helper()
	sub := filepath.Join(dir, "vendored")
	write(t, filepath.Join(sub, "v.txt"), "v\n")
	gitT(t, sub, "init", "-q")
	gitT(t, sub, "add", "-A")
	gitT(t, sub, "commit", "-qm", "v")
	return sub
}

// submodule commits a nestedRepo in dir's repository as a gitlink.
func submodule(t *testing.T, dir string) string {
	t.Helper()
	sub := nestedRepo(t, dir)
	gitT(t, dir, "add", "vendored")
	gitT(t, dir, "commit", "-qm", "with a gitlink")
	return sub
}

// gitmodulesLink is a symlink git refuses to add (core.protectHFS and
// core.protectNTFS on): a .gitmodules as HFS+ or NTFS may resolve name.
func gitmodulesLink(name string) snapshotCase {
	return snapshotCase{name: "a symlink named " + name, declined: true, addFails: true, setup: func(t *testing.T, dir string) {
		symlink(t, "a.txt", filepath.Join(dir, name))
	}}
}

// gitDirFiles lists the files of the git dir but its objects, with their
// sizes and mtimes (but a shared index's).
func gitDirFiles(t *testing.T, p *Project) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(p.GitDir, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(p.GitDir, path)
		if info.IsDir() && rel == "objects" {
			return filepath.SkipDir
		}
		mtime := info.ModTime().String()
		if strings.HasPrefix(rel, "sharedindex.") {
			mtime = "" // git freshens a shared index each time it reads it
		}
		fmt.Fprintf(&b, "%s %d %s\n", rel, info.Size(), mtime)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// headOf is the snapshotHead TakeSnapshot would read now.
func headOf(t *testing.T, p *Project) snapshotHead {
	t.Helper()
	return snapshotHead{
		commit: gitT(t, p.Root, "rev-parse", "HEAD"),
		tree:   gitT(t, p.Root, "rev-parse", "HEAD^{tree}"),
		index:  filepath.Join(p.GitDir, "index"),
	}
}

// treeReadingEveryFile is the tree `git add -A` gives on a copy of the
// index dated one second after the epoch: every entry is then racily clean,
// so git trusts no stat data and reads every file it tracks (the index's
// assume-unchanged and skip-worktree bits still hold). It is the work
// tree's content as git sees it, however the times fell.
func treeReadingEveryFile(t *testing.T, p *Project) string {
	t.Helper()
	ctx := context.Background()
	index := filepath.Join(t.TempDir(), "index")
	if err := copyFile(filepath.Join(p.GitDir, "index"), index); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(index, time.Unix(1, 0), time.Unix(1, 0)); err != nil {
		t.Fatal(err)
	}
	g := gitCmd{dir: p.Root}.with("GIT_INDEX_FILE=" + index)
	if _, err := g.run(ctx, "-c", "core.splitIndex=false", "add", "-A", "--", "."); err != nil {
		t.Fatal(err)
	}
	tree, err := g.line(ctx, "write-tree")
	if err != nil {
		t.Fatal(err)
	}
	return tree
}
