package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"time"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// Step is one path undo puts back: from what is there now (nil: nothing)
// to what the checkpoint had (nil: nothing).
type Step struct {
	Path     string
	Now, Was *Entry
}

// Line is the step as one line: what undo does to the path (shown as
// Change.Line shows it).
func (s Step) Line() string {
	line := s.line()
	if w, _ := compare(s.Now, s.Was); w != OwnerOnly && w != Deleted && ownerChanged(s.Now, s.Was) {
		line += " and its owner " + OwnerText(s.Was)
	}
	if ownerNotBack(s) {
		line += " (its owner " + OwnerText(s.Was) + " only root can give back: undo is not running as root)"
	}
	return line
}

func (s Step) line() string {
	w, _ := compare(s.Now, s.Was)
	shown := textsafe.Line(s.Path)
	switch w {
	case Added:
		return "recreate " + shown
	case Deleted:
		return "remove " + shown
	case OwnerOnly:
		return "chown " + OwnerText(s.Was) + " " + shown
	case ModeOnly:
		switch {
		case s.Now.Mode != s.Was.Mode:
		case s.Now.DefACL != s.Was.DefACL:
			return "put back the default ACL of " + shown
		case s.Was.Kind == KindDir:
			return "put back the extended attributes of " + shown
		default:
			return "restore " + shown
		}
		return fmt.Sprintf("chmod %04o %s", unixMode(s.Was.Mode), shown)
	}
	return "restore " + shown
}

// Conflict is a path the person changed after the run ended that undo
// would overwrite.
type Conflict struct{ Path, Why string }

// Plan is what undoing one record does to the place.
type Plan struct {
	Steps     []Step
	Conflicts []Conflict
	// Cannot are paths the run changed that the checkpoint cannot put
	// back (over the size bound, a git dir, a special file).
	Cannot []Conflict
	// Links are, for each step that puts back a file, the other paths
	// that were one file with it before (relink.go).
	Links map[string][]*Entry
}

// PlanUndo plans putting the place back from now to before. With after
// (the place as the run left it), only what the run changed is put back,
// and a path the person changed since (now differs from after) is a
// Conflict; without it, everything that differs from before is in scope.
func PlanUndo(before, after, now *Manifest) *Plan {
	paths := map[string]bool{}
	for _, m := range []*Manifest{before, after, now} {
		if m == nil {
			continue
		}
		for _, e := range m.Entries {
			paths[e.Path] = true
		}
	}
	withTop(paths, before, after, now)
	plan := &Plan{}
	for p := range paths {
		was, _ := before.Get(p)
		cur, _ := now.Get(p)
		var left *Entry
		if after != nil {
			left, _ = after.Get(p)
			if Same(was, left) {
				continue // the run did not change it
			}
		}
		if Same(cur, was) {
			continue // already as it was
		}
		if after != nil && !Same(cur, left) {
			plan.Conflicts = append(plan.Conflicts, Conflict{p, describe(left, cur)})
		}
		switch {
		case was != nil && was.Kind == KindGit, cur != nil && cur.Kind == KindGit:
			plan.Cannot = append(plan.Cannot, Conflict{p, "a git dir: undo never creates, removes or rewrites one"})
			continue
		case was != nil && !was.covered():
			why := was.Skip
			if why == "" {
				why = "not a file, directory or symlink"
			}
			plan.Cannot = append(plan.Cannot, Conflict{p, "not covered by the checkpoint: " + why})
			continue
		}
		plan.Steps = append(plan.Steps, Step{Path: p, Now: cur, Was: was})
	}
	sort.Slice(plan.Steps, func(i, j int) bool { return plan.Steps[i].Path < plan.Steps[j].Path })
	sort.Slice(plan.Conflicts, func(i, j int) bool { return plan.Conflicts[i].Path < plan.Conflicts[j].Path })
	sort.Slice(plan.Cannot, func(i, j int) bool { return plan.Cannot[i].Path < plan.Cannot[j].Path })
	plan.Links = linkGroups(before, plan.Steps)
	return plan
}

// describe says how the person's copy differs from what the run left.
func describe(left, cur *Entry) string {
	switch {
	case left == nil:
		return "created since the run ended"
	case cur == nil:
		return "deleted since the run ended"
	}
	return "changed since the run ended"
}

// asRoot: undo runs as root, and so can (and must) give back each path's
// owner; otherwise what it makes is the person's own.
var asRoot = os.Geteuid() == 0

// Applied is what Apply did.
type Applied struct {
	Done []string // one line per step carried out
	Kept []string // what was left, and why (a directory not empty)
	// Relinked are the paths made hard links again (one line each).
	Relinked []string
	// Copies are the paths that were one file with a file outside the
	// place and are put back as a copy of it, each with why (outside.go).
	Copies []string
	// Raced are the paths that changed after undo looked at the place,
	// left as they are (undo_race.go).
	Raced []Conflict
	// Owners are the paths put back whose owner or group is not the
	// checkpoint's (undo is not root), one line each (owner.go).
	Owners []string
}

// Apply carries out plan on the place at root from store s. Every change
// is made from the directory that holds its path, opened from the place
// following no link in any element (stepDir), to that one name, and never
// follows a link there either: a step whose parent directory is a link
// when it runs (swapped in after planning, or while undo runs) is refused,
// not written through to elsewhere in the place or out of it. A file is
// written beside its name, checked against its hash, and renamed over it.
func Apply(s *Store, root string, plan *Plan) (*Applied, error) {
	return apply(s, root, plan, applyOptions{})
}

// applyOptions are Apply's test seams (unset in the program): stepHook
// runs after a step's link check and before it writes; noOpenat2 opens
// as on a kernel without openat2.
type applyOptions struct {
	stepHook  func(p string)
	noOpenat2 bool
}

func apply(s *Store, root string, plan *Plan, o applyOptions) (*Applied, error) {
	for _, st := range plan.Steps {
		if st.Path == "." && st.Now != nil && st.Was != nil {
			// the run took the place's own permissions away: open it (the
			// last loop gives it its mode from before the run)
			if _, _, err := openDirForUndo(root); err != nil {
				return nil, err
			}
		}
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var dir *os.File // the place itself, for stepDir's one-call open
	if !o.noOpenat2 {
		if dir, err = r.Open("."); err == nil {
			defer dir.Close()
		} else {
			dir = nil
		}
	}
	out := &Applied{}
	var errs []error
	fail := func(p string, err error) { errs = append(errs, fmt.Errorf("%s: %w", p, err)) }
	// A step whose parent is a link when it is carried out is refused
	// (once), and so are the later steps of that path.
	refused := map[string]bool{}
	at := func(p string, do func(pr *os.Root, base string) error) (ok bool, err error) {
		if refused[p] {
			return false, nil
		}
		pr, base, done, err := stepDir(r, dir, p, o.stepHook)
		if err != nil {
			refused[p] = true
			fail(p, err)
			return false, nil
		}
		defer done()
		return true, do(pr, base)
	}
	// Directories the run made read-only or unlistable are opened first.
	for _, st := range plan.Steps {
		if st.Now != nil && st.Now.Kind == KindDir && st.Now.Mode&0o700 != 0o700 {
			_, _ = at(st.Path, func(pr *os.Root, base string) error { return chmodDir(pr, base, st.Now.Mode|0o700) })
		}
	}
	reclose := openAbove(r, plan.Steps, at)
	// Removals, deepest first: what the run created, and what stands where
	// something of another kind was (a link is replaced, not followed).
	removed := map[string]bool{}
	raced := func(p string, err error) bool {
		if errors.Is(err, errRaced) {
			refused[p] = true
			out.Raced = append(out.Raced, Conflict{p, racedWhy})
			return true
		}
		return false
	}
	for i := len(plan.Steps) - 1; i >= 0; i-- {
		st := plan.Steps[i]
		if st.Now == nil || (st.Was != nil && st.Was.Kind == st.Now.Kind && st.Now.Kind != KindSymlink) {
			continue
		}
		ok, err := at(st.Path, func(pr *os.Root, base string) error {
			if err := stillAsPlanned(pr, base, st.Now); err != nil {
				return err
			}
			return pr.Remove(base)
		})
		if !ok || raced(st.Path, err) {
			continue
		}
		if err != nil {
			if st.Now.Kind == KindDir && st.Was == nil {
				out.Kept = append(out.Kept, st.Path+"/: made by the run, kept because it is not empty (it holds what the checkpoint does not cover, or what you made since)")
				continue
			}
			fail(st.Path, err)
			continue
		}
		removed[st.Path] = true
		if st.Was == nil {
			out.Done = append(out.Done, st.Line())
		}
	}
	// Creations and rewrites, shallowest first.
	restored := map[string]*Entry{}
	for _, st := range plan.Steps {
		if st.Was == nil {
			continue
		}
		there := st.Now != nil && !removed[st.Path]
		uid, gid, setOwner := ownerTo(st, there)
		left := ""
		ok, err := at(st.Path, func(pr *os.Root, base string) error {
			var want *Entry // what the plan saw there, or nothing once removed
			if there {
				want = st.Now
			}
			still := func() error { return stillAsPlanned(pr, base, want) }
			if err := still(); err != nil {
				return err
			}
			var err error
			switch st.Was.Kind {
			case KindDir:
				if !there {
					err = pr.Mkdir(base, 0o700)
				}
			case KindSymlink:
				err = pr.Symlink(st.Was.Target, base)
			case KindFile:
				err = s.restoreFile(pr, base, st.Was, owner{uid, gid, setOwner}, still)
			}
			if err == nil && setOwner && st.Was.Kind != KindFile { // a file's owner is set before its rename
				if asRoot {
					err = pr.Lchown(base, uid, gid)
				} else if uid == euid {
					_ = pr.Lchown(base, -1, gid) // a group of its own user's, if it still is one; ownerLeft tells if not
				}
			}
			if err == nil {
				left = ownerLeft(pr, base, st.Path, st.Was)
			}
			return err
		})
		if !ok || raced(st.Path, err) {
			continue
		}
		if err != nil {
			fail(st.Path, err)
			continue
		}
		out.Done = append(out.Done, st.Line())
		if left != "" {
			out.Owners = append(out.Owners, left)
		}
		if st.Was.Kind == KindFile {
			restored[st.Path] = st.Was
		}
	}
	// Names outside the place first: relink then joins the place's other
	// names to the file that is one with the outside again.
	outside, copies := s.relinkOutside(r, restored, plan.Links, at)
	out.Done = append(out.Done, outside...)
	out.Relinked, out.Copies = outside, copies
	if len(plan.Links) > 0 {
		linked, lerrs := relink(r, plan.Links, restored)
		out.Done = append(out.Done, linked...)
		out.Relinked = append(out.Relinked, linked...)
		errs = append(errs, lerrs...)
	}
	// Directory modes last, deepest first, once nothing more is written in them.
	for i := len(plan.Steps) - 1; i >= 0; i-- {
		st := plan.Steps[i]
		if st.Was != nil && st.Was.Kind == KindDir {
			if ok, err := at(st.Path, func(pr *os.Root, base string) error {
				return chmodDirACL(pr, base, st.Was.Mode, &st.Was.DefACL, &st.Was.XAttrs)
			}); ok && err != nil {
				fail(st.Path, err)
			}
		}
	}
	for i := len(reclose) - 1; i >= 0; i-- {
		d := reclose[i]
		if ok, err := at(d.rel, func(pr *os.Root, base string) error { return chmodDir(pr, base, d.mode) }); ok && err != nil {
			fail(d.rel, err)
		}
	}
	return out, errors.Join(errs...)
}

// linkAbove is an error naming the first directory above the
// slash-separated p that is a symlink (or not a directory) in the place now.
func linkAbove(r *os.Root, p string) error {
	for i := 0; i < len(p); i++ {
		if p[i] != '/' {
			continue
		}
		fi, err := r.Lstat(p[:i])
		if errors.Is(err, fs.ErrNotExist) {
			return nil // made by an earlier step, or the step fails on its own
		}
		if err != nil {
			return err
		}
		if !fi.IsDir() {
			return fmt.Errorf("%s is a %s now, not the directory the plan saw: not written through it (take a new checkpoint and plan again)", p[:i], kindName(fi))
		}
	}
	return nil
}

func kindName(fi fs.FileInfo) string {
	if fi.Mode()&fs.ModeSymlink != 0 {
		return "symlink"
	}
	return "file"
}

// restoreFile writes the checkpoint's content of e at p: a temporary file
// beside it, its hash checked, its owner (own), mode and mtime set,
// renamed over p.
func (s *Store) restoreFile(r *os.Root, p string, e *Entry, own owner, still func() error) error {
	src, err := s.openBlob(e.Hash)
	if err != nil {
		return fmt.Errorf("the checkpoint's copy is missing: %w", err)
	}
	defer src.Close()
	tmp := path.Join(path.Dir(p), besideName(path.Base(p), "undo"))
	f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	defer r.Remove(tmp) // gone after the rename; there after a failure
	h := sha256.New()
	_, err = io.Copy(io.MultiWriter(f, h), src)
	if err == nil && hex.EncodeToString(h.Sum(nil)) != e.Hash {
		err = errors.New("the checkpoint's copy does not match its hash; not restored")
	}
	switch {
	case err != nil || !own.set:
	case asRoot:
		err = f.Chown(own.uid, own.gid)
	case own.uid == euid:
		_ = f.Chown(-1, own.gid) // a group of its own user's, if it still is one; ownerLeft tells if not
	}
	if err == nil {
		err = f.Chmod(e.Mode & modeBits) // after chown, which clears setuid
	}
	if err == nil && e.XAttrs != "" {
		err = setXAttrs(f, e.XAttrs) // after chown, which clears capabilities
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := r.Chtimes(tmp, time.Time{}, time.Unix(0, e.MTime)); err != nil {
		return err
	}
	if err := still(); err != nil { // the copy took a while: look again
		return err
	}
	return r.Rename(tmp, p)
}
