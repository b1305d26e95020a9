package userstate

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/sentinelhq/sentinel/internal/filestamp"
)

// Some answers cost a process start to get (git's identity, the project's
// top level, go env) and are asked on every `sentinel sandbox run`. They
// are kept here, signed with the user's key so that nothing a coder wrote
// can pass for one, and used only while the key of the question (the
// stamps of everything the answer may come from) is unchanged.

// Stamp writes to w what the file at p is now — device, inode, mode,
// owner, size, modification and change times — or that it is not there.
// A directory's stamp changes when an entry is added to it or removed.
func Stamp(w io.Writer, p string) {
	st, err := os.Stat(p)
	if err != nil {
		fmt.Fprintf(w, "nofile %q\n", p)
		return
	}
	s, ok := filestamp.Of(st)
	if !ok {
		fmt.Fprintf(w, "file %q %d %d %v\n", p, st.Size(), st.ModTime().UnixNano(), st.Mode())
		return
	}
	fmt.Fprintf(w, "file %q %d %d %v %d %d %d %d %d.%d\n", p, st.Size(), st.ModTime().UnixNano(), st.Mode(),
		s.Dev, s.Ino, s.UID, s.GID, s.CtimeSec, s.CtimeNsec)
}

// StampWhatItIs writes to w what the directory at p is — device, inode,
// mode and owner — and not its times, which change with every entry made
// in it: a mount over it, a new owner or another directory in its place
// changes the stamp; files coming and going in it do not.
func StampWhatItIs(w io.Writer, p string) {
	st, err := os.Stat(p)
	if err != nil {
		fmt.Fprintf(w, "nofile %q\n", p)
		return
	}
	if s, ok := filestamp.Of(st); ok {
		fmt.Fprintf(w, "is %q %v %d %d %d\n", p, st.Mode(), s.Dev, s.Ino, s.UID)
		return
	}
	fmt.Fprintf(w, "is %q %v\n", p, st.Mode())
}

// DirCache is a state file of answers kept per directory, the newest
// first, at most Entries of them.
type DirCache struct {
	File    string // its name in the state directory
	Purpose string // what its signatures are bound to (bump it when the value's shape changes)
	Entries int
}

type dirCacheEntry struct {
	Dir   string          `json:"dir"`
	Key   string          `json:"key"`
	Value json.RawMessage `json:"value"`
	Sig   string          `json:"sig"`
}

// Get is the answer kept for dir, decoded into value, and the key it was
// kept under; ok only when there is one and its signature holds. The
// caller compares the key with the question's now.
func (c DirCache) Get(dir string, value any) (key string, ok bool) {
	for _, e := range c.read() {
		if e.Dir != dir {
			continue
		}
		if !Verify(c.Purpose, e.signed(), e.Sig) || json.Unmarshal(e.Value, value) != nil {
			return "", false
		}
		return e.Key, true
	}
	return "", false
}

// Put keeps value as dir's answer under key (best effort: without it the
// next start asks again).
func (c DirCache) Put(dir, key string, value any) {
	v, err := json.Marshal(value)
	if err != nil {
		return
	}
	e := dirCacheEntry{Dir: dir, Key: key, Value: v}
	if e.Sig, err = Sign(c.Purpose, e.signed()); err != nil {
		return
	}
	entries := []dirCacheEntry{e}
	for _, old := range c.read() {
		if old.Dir != dir && len(entries) < c.Entries {
			entries = append(entries, old)
		}
	}
	if b, err := json.Marshal(entries); err == nil {
		_ = WriteFile(c.File, b) // a cache: a failed write only costs the next start
	}
}

func (c DirCache) read() []dirCacheEntry {
	p, err := Path(c.File)
	if err != nil {
		return nil
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	var entries []dirCacheEntry
	if json.Unmarshal(b, &entries) != nil {
		return nil
	}
	return entries
}

// signed is what an entry's signature covers: all of it but the signature.
func (e dirCacheEntry) signed() []byte {
	e.Sig = ""
	b, _ := json.Marshal(e)
	return b
}
