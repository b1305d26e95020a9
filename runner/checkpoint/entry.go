package checkpoint

import (
	"io/fs"
	"sort"
	"strings"
	"sync"
	"time"
)

// Kind is what an entry is.
type Kind string

// The kinds of entry.
const (
	KindDir     Kind = "dir"
	KindFile    Kind = "file"
	KindSymlink Kind = "symlink"
	// KindGit is a `.git` directory or file: recorded by presence only.
	KindGit Kind = "git"
	// KindOther is a fifo, socket or device: recorded, never covered.
	KindOther Kind = "other"
)

// withArticle is the kind as a report line names it: "a dir", "a fifo,
// socket, device or unreadable entry".
func (k Kind) withArticle() string {
	if k == KindOther {
		return "a fifo, socket, device or unreadable entry"
	}
	return "a " + string(k)
}

// Entry is one path of a place as a checkpoint saw it.
type Entry struct {
	Path   string      `json:"p"` // slash-separated, relative to the place
	Kind   Kind        `json:"k"`
	Mode   fs.FileMode `json:"m,omitempty"` // permission bits, setuid, setgid, sticky
	Size   int64       `json:"s,omitempty"`
	Hash   string      `json:"h,omitempty"` // sha256 of a covered file's content
	Target string      `json:"t,omitempty"` // a symlink's target
	// Skip says why a file's content is not in the checkpoint (over the
	// size bound, unreadable): undo cannot bring it back.
	Skip string `json:"skip,omitempty"`
	// The stamp: a file whose stamp matches an earlier checkpoint's (and
	// is older than that checkpoint) is not read again. ctime cannot be
	// set back by a process, so a rewrite with a forged mtime still shows.
	MTime int64  `json:"mt,omitempty"`
	CTime int64  `json:"ct,omitempty"`
	Ino   uint64 `json:"i,omitempty"`
	Dev   uint64 `json:"d,omitempty"`
	// Out is how many names a regular file has outside the place (hard
	// links), when it has any (outside.go, SharedOutside). It is the one
	// record of hard links out of the place: ipatk9's "n" (the whole link
	// count), which records of that day also hold, is left unread, since
	// Out says the same of a whole record.
	Out uint64 `json:"o,omitempty"`
	// OutDev and OutIno, when set, are the file outside the place this
	// path was one with until Sentinel made it the place's own copy before
	// the coder acted (Unshare, CarryOutside): its name in the store is
	// that file's, and undo links the path to it again.
	OutDev uint64 `json:"od,omitempty"`
	OutIno uint64 `json:"oi,omitempty"`
	// DefACL is a directory's POSIX default ACL (defaultACL), "" for none:
	// files made in the directory later take its permissions, not the
	// umask, so one a run sets changes what the person's tools make there.
	DefACL string `json:"da,omitempty"`
	// XAttrs are a file's or directory's user.* extended attributes and
	// file capabilities (xattrsOf), "" for none: a run may set the one,
	// and a rewrite drops the other.
	XAttrs string `json:"xa,omitempty"`
	// The owner (0 is root: see Manifest.Owners), compared (OwnerOnly)
	// and put back when undo runs as root (owner.go).
	UID uint32 `json:"u,omitempty"`
	GID uint32 `json:"g,omitempty"`
	// owned: UID and GID were recorded. A manifest saved before Sentinel
	// recorded owners reads them as 0 (root); its entries are neither
	// compared by owner nor given an owner by undo (owner.go).
	owned bool
}

// covered says whether the entry can be restored exactly.
func (e *Entry) covered() bool {
	switch e.Kind {
	case KindDir, KindSymlink:
		return true
	case KindFile:
		return e.Hash != "" && e.Skip == ""
	}
	return false
}

// Limits bound what a checkpoint stores; zero fields take the defaults.
type Limits struct {
	MaxFileBytes  int64 // a larger file is listed, not covered
	MaxTotalBytes int64 // once this much content is covered, the rest is listed only
}

// Default bounds.
const (
	DefaultMaxFileBytes  = 16 << 20
	DefaultMaxTotalBytes = 1 << 30
)

func (l Limits) withDefaults() Limits {
	if l.MaxFileBytes <= 0 {
		l.MaxFileBytes = DefaultMaxFileBytes
	}
	if l.MaxTotalBytes <= 0 {
		l.MaxTotalBytes = DefaultMaxTotalBytes
	}
	return l
}

// Manifest is one checkpoint of a place: its entries sorted by path.
type Manifest struct {
	Root    string    `json:"root"`
	Started time.Time `json:"started"` // when the walk began (stamps newer than this are re-read next time)
	Took    int64     `json:"took_ms"`
	Bytes   int64     `json:"bytes"` // covered content
	Read    int       `json:"read"`  // files read (the rest reused an earlier checkpoint's stamp)
	Entries []Entry   `json:"entries"`
	// Top is the place's own directory (its mode and owner), Get(".");
	// nil in a checkpoint taken before Sentinel recorded it, and then
	// neither compared nor put back.
	Top *Entry `json:"top,omitempty"`
	// Owners says every entry's owner was recorded (u and g left out
	// for 0); false in a manifest of a platform without owners or saved
	// before this field (ownersKnown).
	Owners bool `json:"owners,omitempty"`

	indexOnce sync.Once // Get may be asked from many goroutines (the policy's Covers)
	index     map[string]int
}

// Get is the entry at the slash-separated relative path p, if any.
func (m *Manifest) Get(p string) (*Entry, bool) {
	if m == nil {
		return nil, false
	}
	if p == "." {
		return m.Top, m.Top != nil
	}
	m.indexOnce.Do(func() {
		m.index = make(map[string]int, len(m.Entries))
		for i := range m.Entries {
			m.index[m.Entries[i].Path] = i
		}
	})
	i, ok := m.index[p]
	if !ok {
		return nil, false
	}
	return &m.Entries[i], true
}

// withTop adds "." to paths when every one of ms (nil ones aside) records
// the place's own directory.
func withTop(paths map[string]bool, ms ...*Manifest) {
	for _, m := range ms {
		if m != nil && m.Top == nil {
			return
		}
	}
	paths["."] = true
}

// NotCovered are the entries the checkpoint lists but cannot restore,
// git dirs aside (never restored, and not news).
func (m *Manifest) NotCovered() []Entry {
	var out []Entry
	for _, e := range m.Entries {
		if !e.covered() && e.Kind != KindGit {
			out = append(out, e)
		}
	}
	return out
}

// Covers says whether the checkpoint can restore the slash-separated
// relative path p completely: p was there, and it (for a directory,
// everything under it) is covered — not over the size bound, not a git
// dir, not a special file. A path that did not exist is not covered.
func (m *Manifest) Covers(p string) bool {
	p = strings.Trim(p, "/")
	if p == "" || p == "." {
		if m == nil {
			return false
		}
		for _, e := range m.Entries {
			if !e.covered() {
				return false
			}
		}
		return true
	}
	e, ok := m.Get(p)
	if !ok || !e.covered() {
		return false
	}
	if e.Kind != KindDir {
		return true
	}
	// Entries are sorted, so everything under p follows it.
	prefix := p + "/"
	i := sort.Search(len(m.Entries), func(i int) bool { return m.Entries[i].Path >= prefix })
	for ; i < len(m.Entries) && strings.HasPrefix(m.Entries[i].Path, prefix); i++ {
		if !m.Entries[i].covered() {
			return false
		}
	}
	return true
}
