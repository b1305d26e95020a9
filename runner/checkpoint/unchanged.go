package checkpoint

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// errDiffers ends Unchanged's walk at the first difference.
var errDiffers = errors.New("the place differs from the checkpoint")

// Unchanged says whether the place at root is, stamp for stamp, what prev
// recorded of it: the same paths (nothing more, nothing less), each of the
// same kind; a directory with the same mode, a symlink with the same
// target, a file with the same stamp (size, mode, mtime, ctime, inode,
// device) and a ctime older than prev's walk by the racy margin, as Take
// needs to reuse it. When it is, Take with Prev: prev would read no file
// and record nothing Diff tells from prev, so a caller may use prev as the
// place's checkpoint now. It is the cheap test before a checkpoint on a
// hot path (a point before each tool call): one stat per entry, no file
// read, nothing stored, nothing sorted. Any doubt (an entry that cannot
// be read now, a file too fresh to trust its stamp) is a no, and the
// caller takes the checkpoint in full; a directory prev could not list
// either and that still cannot be listed is the same (prev does not cover
// it, and Take would not look into it), so one such directory does not
// cost every later point the fast path. skip is Take's Options.Skip.
func Unchanged(root string, prev *Manifest, skip []string) bool {
	if prev == nil || prev.Root != root {
		return false
	}
	skipped := make([]os.FileInfo, 0, len(skip))
	for _, p := range skip {
		if st, err := os.Lstat(p); err == nil && st.IsDir() {
			skipped = append(skipped, st)
		}
	}
	trustBefore := prev.Started.Add(-racyMargin)
	seen := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, werr error) error {
		if werr != nil {
			return errDiffers // Take would record it unreadable: let it
		}
		if p == root {
			if info, err := d.Info(); prev.Top != nil && (err != nil || !Same(prev.Top, &Entry{Kind: KindDir, Mode: info.Mode() & modeBits, DefACL: defaultACL(root), XAttrs: xattrsOf(root)})) {
				return errDiffers
			}
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == ".sentinel" && d.IsDir() {
			return fs.SkipDir
		}
		info, err := d.Info()
		if err != nil {
			return errDiffers
		}
		if d.IsDir() {
			for _, s := range skipped {
				if os.SameFile(s, info) {
					return fs.SkipDir
				}
			}
		}
		was, ok := prev.Get(rel)
		if !ok {
			return errDiffers
		}
		seen++
		now := stampOf(rel, info)
		switch {
		case d.Name() == ".git":
			if was.Kind != KindGit {
				return errDiffers
			}
			if d.IsDir() {
				return fs.SkipDir
			}
		case d.IsDir() && was.Kind == KindOther && strings.HasPrefix(was.Skip, unreadable):
			// Unreadable last time: the same while it still cannot be
			// listed (Take would record it so again, and nothing under it);
			// listable now, it is news. The rest keeps the fast path.
			if _, err := os.ReadDir(p); err == nil {
				return errDiffers
			}
			return fs.SkipDir
		case d.IsDir():
			if was.Kind != KindDir || was.Mode != now.Mode || was.DefACL != defaultACL(p) || was.XAttrs != xattrsOf(p) {
				return errDiffers
			}
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil || was.Kind != KindSymlink || was.Target != target {
				return errDiffers
			}
		case info.Mode().IsRegular():
			if was.Kind != KindFile || !sameStamp(was, &now) || !time.Unix(0, now.CTime).Before(trustBefore) {
				return errDiffers
			}
		default:
			if was.Kind != KindOther {
				return errDiffers
			}
		}
		return nil
	})
	return err == nil && seen == len(prev.Entries)
}
