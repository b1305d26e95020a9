// Package gitindex reads a git index's extensions and removes from it
// the caches git trusts instead of looking that a command Sentinel ran
// wrote (sentinel exec in place, sentinel mcp's exec): see Caches.
package gitindex

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// Beside its entries a git index holds extensions, and two of them are
// records git trusts instead of looking (git's index-format): UNTR, the
// untracked-files cache (a directory whose stat record matches is not read
// again: a new file in it is not listed), and FSMN, the fsmonitor record
// (an entry not marked dirty since its token is not checked at all, when
// the person's config runs an fsmonitor). In place the coder may write the
// index, so either could hide a new or changed file from the person's next
// git status as an assume-unchanged bit does. Sentinel's own git never
// trusts them (hardgit: core.untrackedCache=false, core.fsmonitor=false),
// so the report sees through them; the person's git would not. So at the
// end of an in-place run each that is not byte for byte what the index
// held at the start is removed from the project's index (git rebuilds
// both on the next status: only that status is slower), under git's
// index.lock; one the index did not hold at the start is named
// DANGEROUS (the person's git does not make one uninvited), and one that
// cannot be removed is named with the command that removes it.
//
// TREE, the cache-tree, is of the same class: for each directory it
// records a tree id and how many entries it covers, and git trusts a
// valid record instead of hashing the entries again (git write-tree and
// git commit take the recorded subtree whole, git diff --cached skips a
// directory whose record matches HEAD). A forged one makes the person's
// next commit record a tree the coder chose, not the index's entries. It
// is removed the same way when the run changed it (git rebuilds it on the
// next commit), but one the index did not hold at the start is not
// DANGEROUS by itself: the coder's own git commit writes one.

// caches are the extensions git trusts instead of looking, with what
// they are; offsets index the extensions by offset (EOIE's hash
// covers them all: it goes with any removed).
var (
	caches = map[string]string{
		"UNTR": "an untracked-files cache",
		"FSMN": "an fsmonitor record",
		"TREE": "a cache-tree",
	}
	offsets = []string{"EOIE"}
)

// risk is what a forged cache could do to the person's next git.
func risk(sig string) string {
	if sig == "TREE" {
		return "your next git commit could record a tree other than your index's entries"
	}
	return "your next git status could pass over a new or changed file"
}

// Cache is one cache the coder's git left in a project's index.
type Cache struct {
	Sig  string `json:"sig"`
	What string `json:"what"`
	// New: the index held none at the start.
	New bool `json:"new,omitempty"`
	// Err: why it could not be removed ("" when it was).
	Err string `json:"err,omitempty"`
}

// Told reports whether the change report names c. A cache-tree the run
// changed and that was removed is not told: removing one is always safe
// (git rebuilds it from the entries on the next commit), and the coder's
// own ordinary git commit writes one, so naming it would add a line to
// every run that committed. One that could not be removed is told.
func (c Cache) Told() bool { return c.Sig != "TREE" || c.Err != "" }

// String is one line of the change report.
func (c Cache) String() string {
	l := "your index carried " + c.What + " (" + c.Sig + ") the coder's git wrote; git trusts it instead of looking, so " + risk(c.Sig)
	if c.New && c.Sig != "TREE" {
		l += " [DANGEROUS: your index had none before the run]"
	}
	if c.Err != "" {
		fix := "`git update-index --no-untracked-cache --no-fsmonitor`"
		if c.Sig == "TREE" {
			fix = "check `git ls-files -s` before you commit"
		}
		return textsafe.Line(l + " [DANGEROUS: not removed (" + c.Err + "): " + fix + "]")
	}
	return textsafe.Line(l + "; removed (git rebuilds it when it needs it)")
}

// ErrFormat is an index whose layout is not git's.
var ErrFormat = errors.New("not a git index git's index-format describes")

// ext is one extension: its signature and where it lies in the file.
type ext struct {
	sig        string
	start, end int
}

// layout reads an index's extensions, and the length of its checksum
// (20: SHA-1, 32: SHA-256), trying each.
func layout(b []byte) (exts []ext, hashLen int, err error) {
	for _, hl := range []int{20, 32} {
		if exts, err = extsFor(b, hl); err == nil {
			return exts, hl, nil
		}
	}
	return nil, 0, err
}

func extsFor(b []byte, hashLen int) ([]ext, error) {
	if len(b) < 12+hashLen || string(b[:4]) != "DIRC" {
		return nil, ErrFormat
	}
	ver, n := binary.BigEndian.Uint32(b[4:8]), binary.BigEndian.Uint32(b[8:12])
	if ver < 2 || ver > 4 {
		return nil, ErrFormat
	}
	off, end := 12, len(b)-hashLen
	for i := uint32(0); i < n; i++ {
		fixed := 40 + hashLen + 2
		if off+fixed > end {
			return nil, ErrFormat
		}
		flags := binary.BigEndian.Uint16(b[off+40+hashLen:])
		p := off + fixed
		if ver >= 3 && flags&0x4000 != 0 {
			p += 2
		}
		if ver == 4 {
			for p < end && b[p]&0x80 != 0 { // the prefix length, a varint
				p++
			}
			p++
		}
		if p > end {
			return nil, ErrFormat
		}
		nul := bytes.IndexByte(b[p:end], 0)
		if nul < 0 {
			return nil, ErrFormat
		}
		p += nul + 1
		if ver < 4 {
			p = off + (p-off+7)/8*8 // 1 to 8 NULs pad an entry to 8 bytes
		}
		if p > end {
			return nil, ErrFormat
		}
		off = p
	}
	var exts []ext
	for off < end {
		if off+8 > end {
			return nil, ErrFormat
		}
		size := int(binary.BigEndian.Uint32(b[off+4:]))
		if size < 0 || off+8+size > end {
			return nil, ErrFormat
		}
		exts = append(exts, ext{sig: string(b[off : off+4]), start: off, end: off + 8 + size})
		off += 8 + size
	}
	return exts, nil
}

// CachesOf is each cache extension of b by signature, with its bytes.
func CachesOf(b []byte) (map[string][]byte, error) {
	out := map[string][]byte{}
	if len(b) == 0 {
		return out, nil
	}
	exts, _, err := layout(b)
	if err != nil {
		return nil, err
	}
	for _, e := range exts {
		if _, ok := caches[e.sig]; ok {
			out[e.sig] = b[e.start:e.end]
		}
	}
	return out, nil
}

// WithoutExtensions is b without the extensions whose signatures are in
// drop (and the offset index that covers them), its checksum made again.
func WithoutExtensions(b []byte, drop []string) ([]byte, error) {
	exts, hashLen, err := layout(b)
	if err != nil {
		return nil, err
	}
	out := bytes.Clone(b[:len(b)-hashLen])
	for i := len(exts) - 1; i >= 0; i-- {
		e := exts[i]
		if slices.Contains(drop, e.sig) || slices.Contains(offsets, e.sig) {
			out = append(out[:e.start], out[e.end:]...)
		}
	}
	return withChecksum(out, hashLen), nil
}

// withChecksum is an index's content out followed by its trailer: the
// SHA-1 (hashLen 20) or SHA-256 of out.
func withChecksum(out []byte, hashLen int) []byte {
	if hashLen == 20 {
		h := sha1.Sum(out)
		return append(out, h[:]...)
	}
	h := sha256.Sum256(out)
	return append(out, h[:]...)
}

// DropChanged removes from gitDir's index each cache that is not byte
// for byte what start (the index as it was before the command; nil: none)
// held, under git's index.lock, and names each, sorted; an Err says why
// one could not be removed. No index: nothing.
func DropChanged(gitDir string, start []byte) ([]Cache, error) {
	was, err := CachesOf(start)
	if err != nil {
		was = map[string][]byte{}
	}
	now, err := Read(gitDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	has, err := CachesOf(now)
	if err != nil {
		return nil, fmt.Errorf("read the extensions of your git index: %w", err)
	}
	var out []Cache
	var drop []string
	for sig, ext := range has {
		if old, ok := was[sig]; ok && bytes.Equal(old, ext) {
			continue
		}
		_, had := was[sig]
		out = append(out, Cache{Sig: sig, What: caches[sig], New: !had})
		drop = append(drop, sig)
	}
	if len(out) == 0 {
		return nil, nil
	}
	slices.SortFunc(out, func(a, b Cache) int { return strings.Compare(a.Sig, b.Sig) })
	stripped, err := WithoutExtensions(now, drop)
	if err == nil {
		err = Replace(gitDir, now, stripped)
	}
	if err != nil {
		for i := range out {
			out[i].Err = err.Error()
		}
	}
	return out, nil
}

// Extension is the extension sig of the index b, whole (signature and
// size included), or nil when b holds none.
func Extension(b []byte, sig string) ([]byte, error) {
	exts, _, err := layout(b)
	if err != nil {
		return nil, err
	}
	for _, e := range exts {
		if e.sig == sig {
			return bytes.Clone(b[e.start:e.end]), nil
		}
	}
	return nil, nil
}
