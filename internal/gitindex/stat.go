package gitindex

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/internal/nofollow"
)

// Each index entry holds the stat record of its file (times, device,
// inode, owner, size), and git trusts it: a file whose stat matches its
// record is clean without being read. A command that may write the index
// can change a tracked file and then rewrite that file's record to match
// it (or plant a whole index so): the person's git status, git diff and
// git commit -a pass the change by for good. StatChanged finds the
// entries whose record a command rewrote, Stale those among them whose
// file is not what the entry stages, and WithoutStat clears their record
// (as `git update-index --cacheinfo` leaves it), so that git reads the
// file again.

// Entry is one index entry whose stat record changed.
type Entry struct {
	Path string
	Mode uint32
	OID  []byte
}

// statOf is an entry's stat record (everything of its first 40 bytes but
// the mode), and the entry's mode and object name.
func statOf(b []byte, e entry, hashLen int) (stat []byte, mode uint32, oid []byte) {
	start := e.flags - 40 - hashLen
	stat = append(bytes.Clone(b[start:start+24]), b[start+28:start+40]...)
	return stat, binary.BigEndian.Uint32(b[start+24:]), b[start+40 : start+40+hashLen]
}

// StatChanged are the stage-0 file entries of now whose stat record is not
// the one start held for the same path (or that start lacks); a sparse
// index's directory entries, submodules and skip-worktree entries (git
// does not look at their files) are left out.
func StatChanged(start, now []byte) ([]Entry, int, error) {
	if len(now) == 0 {
		return nil, 0, nil
	}
	_, hashLen, err := layout(now)
	if err != nil {
		return nil, 0, err
	}
	es, err := entriesOf(now, hashLen)
	if err != nil {
		return nil, 0, err
	}
	was := map[string][]byte{}
	if len(start) > 0 {
		if _, hl, err := layout(start); err == nil && hl == hashLen {
			if ws, err := entriesOf(start, hl); err == nil {
				for _, e := range ws {
					s, _, _ := statOf(start, e, hl)
					was[e.path] = s
				}
			}
		}
	}
	var out []Entry
	for _, e := range es {
		flags := binary.BigEndian.Uint16(now[e.flags:])
		if flags&0x3000 != 0 || strings.HasSuffix(e.path, "/") || (e.ext >= 0 && binary.BigEndian.Uint16(now[e.ext:])&0x4000 != 0) {
			continue
		}
		s, mode, oid := statOf(now, e, hashLen)
		if mode&0o170000 == 0o160000 {
			continue
		}
		if w, ok := was[e.path]; ok && bytes.Equal(w, s) {
			continue
		}
		out = append(out, Entry{Path: e.path, Mode: mode, OID: bytes.Clone(oid)})
	}
	return out, hashLen, nil
}

// Stale reports whether the file of e under the work tree root is not the
// blob e stages, hashed as git stores it with no filter: a link's target
// for a link entry, the bytes of a regular file for a file entry; a file
// of another kind, or a missing one, is stale. A repository whose filters
// (core.autocrlf, a clean filter) change what git stores is told stale
// for a file they change: clearing its record only makes git read it.
func Stale(root string, e Entry, hashLen int) (bool, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return false, err
	}
	defer r.Close()
	name := filepath.FromSlash(e.Path)
	fi, err := r.Lstat(name)
	if os.IsNotExist(err) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	var h hash.Hash = sha1.New()
	if hashLen == 32 {
		h = sha256.New()
	}
	switch {
	case e.Mode&0o170000 == 0o120000:
		if fi.Mode()&os.ModeSymlink == 0 {
			return true, nil
		}
		t, err := r.Readlink(name)
		if err != nil {
			return false, err
		}
		fmt.Fprintf(h, "blob %d\x00%s", len(t), t)
	case fi.Mode().IsRegular():
		f, err := nofollow.OpenIn(r, name, os.O_RDONLY|oNonblock, 0)
		if err != nil {
			return false, err
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return false, err
		}
		if !st.Mode().IsRegular() {
			return true, nil
		}
		fmt.Fprintf(h, "blob %d\x00", st.Size())
		if n, err := io.Copy(h, io.LimitReader(f, st.Size())); err != nil {
			return false, err
		} else if n != st.Size() {
			return true, nil
		}
	default:
		return true, nil
	}
	return !bytes.Equal(h.Sum(nil), e.OID), nil
}

// WithoutStat is b with the stat record of each entry of paths zeroed
// (git then finds it changed and reads the file), its checksum made again
// (the entries keep their size: no offset moves).
func WithoutStat(b []byte, paths map[string]bool) ([]byte, error) {
	return rewriteEntries(b, func(out []byte, e entry, hashLen int) {
		if !paths[e.path] || binary.BigEndian.Uint16(out[e.flags:])&0x3000 != 0 {
			return
		}
		start := e.flags - 40 - hashLen
		clear(out[start : start+24])
		clear(out[start+28 : start+40])
	})
}
