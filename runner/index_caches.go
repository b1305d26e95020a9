package runner

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
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

// indexCaches are the extensions git trusts instead of looking, with what
// they are; indexOffsets index the extensions by offset (EOIE's hash
// covers them all: it goes with any removed).
var (
	indexCaches = map[string]string{
		"UNTR": "an untracked-files cache",
		"FSMN": "an fsmonitor record",
		"TREE": "a cache-tree",
	}
	indexOffsets = []string{"EOIE"}
)

// indexCacheRisk is what a forged cache could do to the person's next git.
func indexCacheRisk(sig string) string {
	if sig == "TREE" {
		return "your next git commit could record a tree other than your index's entries"
	}
	return "your next git status could pass over a new or changed file"
}

// IndexCache is one cache the coder's git left in the project's index.
type IndexCache struct {
	Sig  string `json:"sig"`
	What string `json:"what"`
	// New: the index held none at the start.
	New bool `json:"new,omitempty"`
	// Err: why it could not be removed ("" when it was).
	Err string `json:"err,omitempty"`
}

// String is one line of the change report.
func (c IndexCache) String() string {
	l := "your index carried " + c.What + " (" + c.Sig + ") the coder's git wrote; git trusts it instead of looking, so " + indexCacheRisk(c.Sig)
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

// indexCachesText is the change report's lines for them ("" for none).
func indexCachesText(cs []IndexCache) string {
	if len(cs) == 0 {
		return ""
	}
	var b strings.Builder
	for _, c := range cs {
		b.WriteString("\nin place: " + c.String())
	}
	return b.String()
}

// errIndexFormat is an index whose layout is not git's.
var errIndexFormat = errors.New("not a git index git's index-format describes")

// indexExt is one extension: its signature and where it lies in the file.
type indexExt struct {
	sig        string
	start, end int
}

// indexLayout reads an index's extensions, and the length of its checksum
// (20: SHA-1, 32: SHA-256), trying each.
func indexLayout(b []byte) (exts []indexExt, hashLen int, err error) {
	for _, hl := range []int{20, 32} {
		if exts, err = indexExtsFor(b, hl); err == nil {
			return exts, hl, nil
		}
	}
	return nil, 0, err
}

func indexExtsFor(b []byte, hashLen int) ([]indexExt, error) {
	if len(b) < 12+hashLen || string(b[:4]) != "DIRC" {
		return nil, errIndexFormat
	}
	ver, n := binary.BigEndian.Uint32(b[4:8]), binary.BigEndian.Uint32(b[8:12])
	if ver < 2 || ver > 4 {
		return nil, errIndexFormat
	}
	off, end := 12, len(b)-hashLen
	for i := uint32(0); i < n; i++ {
		fixed := 40 + hashLen + 2
		if off+fixed > end {
			return nil, errIndexFormat
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
			return nil, errIndexFormat
		}
		nul := bytes.IndexByte(b[p:end], 0)
		if nul < 0 {
			return nil, errIndexFormat
		}
		p += nul + 1
		if ver < 4 {
			p = off + (p-off+7)/8*8 // 1 to 8 NULs pad an entry to 8 bytes
		}
		if p > end {
			return nil, errIndexFormat
		}
		off = p
	}
	var exts []indexExt
	for off < end {
		if off+8 > end {
			return nil, errIndexFormat
		}
		size := int(binary.BigEndian.Uint32(b[off+4:]))
		if size < 0 || off+8+size > end {
			return nil, errIndexFormat
		}
		exts = append(exts, indexExt{sig: string(b[off : off+4]), start: off, end: off + 8 + size})
		off += 8 + size
	}
	return exts, nil
}

// indexCachesOf is each cache extension of b by signature, with its bytes.
func indexCachesOf(b []byte) (map[string][]byte, error) {
	out := map[string][]byte{}
	if len(b) == 0 {
		return out, nil
	}
	exts, _, err := indexLayout(b)
	if err != nil {
		return nil, err
	}
	for _, e := range exts {
		if _, ok := indexCaches[e.sig]; ok {
			out[e.sig] = b[e.start:e.end]
		}
	}
	return out, nil
}

// withoutExtensions is b without the extensions whose signatures are in
// drop (and the offset index that covers them), its checksum made again.
func withoutExtensions(b []byte, drop []string) ([]byte, error) {
	exts, hashLen, err := indexLayout(b)
	if err != nil {
		return nil, err
	}
	out := bytes.Clone(b[:len(b)-hashLen])
	for i := len(exts) - 1; i >= 0; i-- {
		e := exts[i]
		if slices.Contains(drop, e.sig) || slices.Contains(indexOffsets, e.sig) {
			out = append(out[:e.start], out[e.end:]...)
		}
	}
	if hashLen == 20 {
		h := sha1.Sum(out)
		return append(out, h[:]...), nil
	}
	h := sha256.Sum256(out)
	return append(out, h[:]...), nil
}

// dropIndexCaches removes from the project's index each cache that is not
// what the index held at the start, and names each.
func (w *Workspace) dropIndexCaches() ([]IndexCache, error) {
	if w == nil || w.project == nil || w.project.GitDir == "" {
		return nil, nil
	}
	start, err := os.ReadFile(projectIndexStart(w.Shadow))
	if err != nil {
		return nil, fmt.Errorf("read the index as it was: %w", err)
	}
	was, err := indexCachesOf(start)
	if err != nil {
		was = map[string][]byte{}
	}
	now, err := readGitIndex(w.project.GitDir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	has, err := indexCachesOf(now)
	if err != nil {
		return nil, fmt.Errorf("read the extensions of your git index: %w", err)
	}
	var out []IndexCache
	var drop []string
	for sig, ext := range has {
		if old, ok := was[sig]; ok && bytes.Equal(old, ext) {
			continue
		}
		_, had := was[sig]
		out = append(out, IndexCache{Sig: sig, What: indexCaches[sig], New: !had})
		drop = append(drop, sig)
	}
	if len(out) == 0 {
		return nil, nil
	}
	slices.SortFunc(out, func(a, b IndexCache) int { return strings.Compare(a.Sig, b.Sig) })
	stripped, err := withoutExtensions(now, drop)
	if err == nil {
		err = replaceIndex(w.project.GitDir, now, stripped)
	}
	if err != nil {
		for i := range out {
			out[i].Err = err.Error()
		}
	}
	return out, nil
}
