package checkpoint

import (
	"fmt"
	"io/fs"
	"sort"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// What is how a path changed between two checkpoints.
type What string

// The ways a path changes.
const (
	Added    What = "added"
	Deleted  What = "deleted"
	Modified What = "modified" // content, symlink target, or what kind of entry it is
	ModeOnly What = "mode"     // only its permission bits (or default ACL, or extended attributes)
	// OwnerOnly: only its owner or group (owner.go).
	OwnerOnly What = "owner"
)

// Change is one path that differs between two checkpoints.
type Change struct {
	Path   string `json:"path"`
	What   What   `json:"what"`
	Before *Entry `json:"before,omitempty"`
	After  *Entry `json:"after,omitempty"`
}

// Line is the change as one line of a report: "M path", "A path",
// "D path", "mode 0644→0755 path", "owner me→them path", with what the
// checkpoint could not see and an owner that changed with the rest.
// The path is the coder's to name: it is shown as textsafe.Line shows it,
// so a newline or an escape in it cannot make a line of its own.
func (c Change) Line() string {
	s, path := "", textsafe.Line(c.Path)
	switch c.What {
	case Added:
		s = "A " + path
	case Deleted:
		s = "D " + path
	case Modified:
		s = "M " + path
	case OwnerOnly:
		s = fmt.Sprintf("owner %s→%s %s", OwnerText(c.Before), OwnerText(c.After), path)
	case ModeOnly:
		s = fmt.Sprintf("mode %04o→%04o %s", unixMode(c.Before.Mode), unixMode(c.After.Mode), path)
		switch {
		case c.Before.Mode != c.After.Mode:
		case c.Before.DefACL != c.After.DefACL:
			s = "acl " + path
		default:
			s = "xattr " + path
		}
	}
	switch {
	case c.After != nil && c.After.Kind == KindGit:
		s += " (a git dir: not looked into)"
	case c.What == ModeOnly && c.Before.DefACL != c.After.DefACL && c.After.DefACL == "":
		s += " (its default ACL taken away)"
	case c.What == ModeOnly && c.Before.DefACL != c.After.DefACL:
		s += " (a new default ACL: files made in it later take its permissions, not your umask)"
	case c.What == ModeOnly && c.Before.XAttrs != c.After.XAttrs:
		s += " (" + xattrChange(c.Before.XAttrs, c.After.XAttrs) + ")"
	case c.Before != nil && c.After != nil && c.Before.Kind != c.After.Kind:
		s += fmt.Sprintf(" (was %s, now %s)", c.Before.Kind.withArticle(), c.After.Kind.withArticle())
	case c.Before != nil && c.Before.Skip != "" && c.What != ModeOnly:
		s += " (not covered by the checkpoint: " + c.Before.Skip + ")"
	}
	if c.What != OwnerOnly {
		s += ownerLine(c.Before, c.After)
	}
	return s
}

// Diff is every path that differs from before to after, sorted by path.
func Diff(before, after *Manifest) []Change {
	paths := map[string]bool{}
	for _, e := range before.Entries {
		paths[e.Path] = true
	}
	for _, e := range after.Entries {
		paths[e.Path] = true
	}
	withTop(paths, before, after)
	var out []Change
	for p := range paths {
		b, _ := before.Get(p)
		a, _ := after.Get(p)
		if w, changed := compare(b, a); changed {
			out = append(out, Change{Path: p, What: w, Before: b, After: a})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// compare says how b became a (either may be nil: not there).
func compare(b, a *Entry) (What, bool) {
	switch {
	case b == nil && a == nil:
		return "", false
	case b == nil:
		return Added, true
	case a == nil:
		return Deleted, true
	case b.Kind != a.Kind:
		return Modified, true
	}
	switch b.Kind {
	case KindFile:
		if !sameContent(b, a) {
			return Modified, true
		}
	case KindSymlink:
		if b.Target != a.Target {
			return Modified, true
		}
		if ownerChanged(b, a) { // lchown: it says who may remove it from a sticky directory
			return OwnerOnly, true
		}
		return "", false // a symlink's own mode means nothing on Linux
	case KindGit, KindOther:
		return "", false
	}
	if b.Mode != a.Mode || b.DefACL != a.DefACL || b.XAttrs != a.XAttrs {
		return ModeOnly, true
	}
	if ownerChanged(b, a) {
		return OwnerOnly, true
	}
	return "", false
}

// sameContent compares two files by hash when both were read, else by
// stamp (a file over the size bound).
func sameContent(b, a *Entry) bool {
	if b.Hash != "" && a.Hash != "" {
		return b.Hash == a.Hash
	}
	return b.Size == a.Size && b.MTime == a.MTime && b.CTime == a.CTime && b.Ino == a.Ino && b.Dev == a.Dev
}

// Same says whether two entries for one path are the same thing (nil:
// not there).
func Same(b, a *Entry) bool {
	_, changed := compare(b, a)
	return !changed
}

// Between is how the path p changed from b to a (either nil: not there),
// as Diff would tell it, and whether it did: for one path seen changed in
// several diffs, from the first one's before to the last one's after.
func Between(p string, b, a *Entry) (Change, bool) {
	w, changed := compare(b, a)
	return Change{Path: p, What: w, Before: b, After: a}, changed
}

// unixMode is m as chmod spells it: the permission bits with setuid
// (04000), setgid (02000) and sticky (01000), which fs.FileMode keeps
// apart; a change of those alone is not "0755→0755".
func unixMode(m fs.FileMode) uint32 {
	u := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		u |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		u |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		u |= 0o1000
	}
	return u
}

// UnixMode is m as chmod spells it (unixMode), for the other lines that
// print a checkpoint entry's mode (placeflags' DANGEROUS lines).
func UnixMode(m fs.FileMode) uint32 { return unixMode(m) }
