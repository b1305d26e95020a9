package gitindex

import (
	"bytes"
	"encoding/binary"
	"strings"
)

// An index entry may carry a mark that tells git not to look at the file:
// assume-unchanged (CE_VALID, `git update-index --assume-unchanged`) and
// skip-worktree (`--skip-worktree`, what a sparse checkout sets on the
// files outside its cone). A command that marks a file and then changes
// it hides the change from the person's git status, git diff and git
// commit -a for good (in a sparse checkout git clears skip-worktree from
// a file it finds present, not assume-unchanged). Marks reads them, in
// every index version (v4's compressed paths, a sparse index's directory
// entries) so that the caller can clear those a command set.

// Mark is what an entry tells git not to do.
type Mark uint8

// The marks.
const (
	Assume Mark = 1 << iota // assume-unchanged: git does not stat the file
	Skip                    // skip-worktree: git does not look at the work tree
)

// String names m as git's update-index options do.
func (m Mark) String() string {
	var s []string
	if m&Assume != 0 {
		s = append(s, "assume-unchanged")
	}
	if m&Skip != 0 {
		s = append(s, "skip-worktree")
	}
	return strings.Join(s, " and ")
}

// entry is where one index entry's flags lie.
type entry struct {
	path       string
	flags, ext int // offsets; ext is -1 without extended flags
}

// entriesOf walks b's entries.
func entriesOf(b []byte, hashLen int) ([]entry, error) {
	if len(b) < 12+hashLen || string(b[:4]) != "DIRC" {
		return nil, ErrFormat
	}
	ver, n := binary.BigEndian.Uint32(b[4:8]), binary.BigEndian.Uint32(b[8:12])
	if ver < 2 || ver > 4 {
		return nil, ErrFormat
	}
	var out []entry
	prev := ""
	off, end := 12, len(b)-hashLen
	for i := uint32(0); i < n; i++ {
		fixed := 40 + hashLen + 2
		if off+fixed > end {
			return nil, ErrFormat
		}
		e := entry{flags: off + 40 + hashLen, ext: -1}
		flags := binary.BigEndian.Uint16(b[e.flags:])
		p := off + fixed
		if ver >= 3 && flags&0x4000 != 0 {
			e.ext = p
			p += 2
		}
		strip := 0
		if ver == 4 { // git's varint: the length to strip from the previous path
			if p >= end {
				return nil, ErrFormat
			}
			c := b[p]
			v := int(c & 0x7f)
			for p++; c&0x80 != 0; p++ {
				if p >= end || v > 1<<24 {
					return nil, ErrFormat
				}
				c = b[p]
				v = (v+1)<<7 | int(c&0x7f)
			}
			if v > len(prev) {
				return nil, ErrFormat
			}
			strip = v
		}
		if p > end {
			return nil, ErrFormat
		}
		nul := bytes.IndexByte(b[p:end], 0)
		if nul < 0 {
			return nil, ErrFormat
		}
		name := string(b[p : p+nul])
		if ver == 4 {
			name = prev[:len(prev)-strip] + name
		}
		e.path, prev = name, name
		p += nul + 1
		if ver < 4 {
			p = off + (p-off+7)/8*8
		}
		if p > end {
			return nil, ErrFormat
		}
		out = append(out, e)
		off = p
	}
	return out, nil
}

// Marks are the entries of the index b that carry a mark, by path; a
// sparse index's directory entries (git's own, named with a trailing
// slash) are left out.
func Marks(b []byte) (map[string]Mark, error) {
	out := map[string]Mark{}
	if len(b) == 0 {
		return out, nil
	}
	_, hashLen, err := layout(b)
	if err != nil {
		return nil, err
	}
	es, err := entriesOf(b, hashLen)
	if err != nil {
		return nil, err
	}
	for _, e := range es {
		var m Mark
		if binary.BigEndian.Uint16(b[e.flags:])&0x8000 != 0 {
			m |= Assume
		}
		if e.ext >= 0 && binary.BigEndian.Uint16(b[e.ext:])&0x4000 != 0 && !strings.HasSuffix(e.path, "/") {
			m |= Skip
		}
		if m != 0 {
			out[e.path] = m
		}
	}
	return out, nil
}

// WithoutMarks is b with the marks clear names taken off their entries,
// its checksum made again (the entries keep their size: no offset moves).
func WithoutMarks(b []byte, clear map[string]Mark) ([]byte, error) {
	return rewriteEntries(b, func(out []byte, e entry, _ int) {
		m := clear[e.path]
		if m&Assume != 0 {
			binary.BigEndian.PutUint16(out[e.flags:], binary.BigEndian.Uint16(out[e.flags:])&^0x8000)
		}
		if m&Skip != 0 && e.ext >= 0 {
			binary.BigEndian.PutUint16(out[e.ext:], binary.BigEndian.Uint16(out[e.ext:])&^0x4000)
		}
	})
}

// rewriteEntries is b with edit applied in place to each entry of a copy
// of its content (edit must keep every entry's size: no offset moves),
// its checksum made again.
func rewriteEntries(b []byte, edit func(out []byte, e entry, hashLen int)) ([]byte, error) {
	_, hashLen, err := layout(b)
	if err != nil {
		return nil, err
	}
	es, err := entriesOf(b, hashLen)
	if err != nil {
		return nil, err
	}
	out := bytes.Clone(b[:len(b)-hashLen])
	for _, e := range es {
		edit(out, e, hashLen)
	}
	return withChecksum(out, hashLen), nil
}
