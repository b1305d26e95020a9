package gitdir

import (
	"compress/zlib"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/sentinelhq/sentinel/internal/filestamp"
	"github.com/sentinelhq/sentinel/internal/nofollow"
)

// Git names each object by the hash of its content, and takes a loose
// object's file for that object without checking: a file rewritten under
// a tracked blob's name is what git checks out next (`git checkout --
// Makefile` then `make`). CheckLoose proves a loose object against its
// name; Loose remembers an object store's loose objects so that only the
// ones that changed are proven again.

var (
	looseDirName  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{2}$`) })
	looseFileName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{38}([0-9a-f]{24})?$`) })
)

// IsLooseName says whether dir/file name a loose object (dir two hex
// digits, file 38 or 62 more).
func IsLooseName(dir, file string) bool {
	return looseDirName().MatchString(dir) && looseFileName().MatchString(file)
}

// MaxLoose bounds how much of one loose object is read to check it.
const MaxLoose = 1 << 30

// CheckLoose says why the loose object at path is not the object name (40
// or 64 hex digits) names ("" when it is): zlib-compressed "type
// size\0content" whose hash is name. The file is opened without following
// a link.
func CheckLoose(path, name string) string {
	f, err := nofollow.OpenFile(path, os.O_RDONLY, 0)
	if err != nil {
		return "unreadable: " + err.Error()
	}
	defer f.Close()
	z, err := zlib.NewReader(f)
	if err != nil {
		return "not zlib data"
	}
	defer z.Close()
	var h hash.Hash = sha1.New()
	if len(name) == 64 {
		h = sha256.New()
	}
	var head []byte
	b := make([]byte, 1)
	for len(head) < 32 {
		if _, err := io.ReadFull(z, b); err != nil {
			return "no object header"
		}
		if b[0] == 0 {
			break
		}
		head = append(head, b[0])
	}
	typ, size, ok := strings.Cut(string(head), " ")
	n, err := strconv.ParseInt(size, 10, 64)
	if !ok || err != nil || n < 0 || n > MaxLoose || (typ != "blob" && typ != "tree" && typ != "commit" && typ != "tag") {
		return "not an object header: " + strconv.Quote(string(head))
	}
	h.Write(append(head, 0))
	got, err := io.Copy(h, io.LimitReader(z, n+1))
	if err != nil {
		return "corrupt: " + err.Error()
	}
	if got != n {
		return fmt.Sprintf("its size is %d, its header says %d", got, n)
	}
	if sum := hex.EncodeToString(h.Sum(nil)); sum != name {
		return "its content hashes to " + sum
	}
	return ""
}

// Objects is an object store's files as they were: each one's stamp
// (identity, change time), by slash-separated path under the store.
type Objects struct {
	dir   string
	stamp map[string]filestamp.Stamp
}

// SnapObjects remembers the files of the object store dir (a missing
// store is an empty one). Nothing is followed: a link is a file here.
func SnapObjects(dir string) *Objects {
	o := &Objects{dir: dir, stamp: map[string]filestamp.Stamp{}}
	o.each(func(rel string, st filestamp.Stamp, _ bool) { o.stamp[rel] = st })
	return o
}

// each calls f with every file of the store (not a directory) and its
// stamp.
func (o *Objects) each(f func(rel string, st filestamp.Stamp, regular bool)) {
	_ = filepath.WalkDir(o.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(o.dir, p)
		st, _ := filestamp.Of(fi)
		f(filepath.ToSlash(rel), st, fi.Mode().IsRegular())
		return nil
	})
}

// Unchanged says whether the file p of the store is there as it was at
// the snapshot (same identity and change time).
func (o *Objects) Unchanged(p string) bool {
	rel, err := filepath.Rel(o.dir, p)
	if err != nil {
		return false
	}
	was, ok := o.stamp[filepath.ToSlash(rel)]
	if !ok || was == (filestamp.Stamp{}) {
		return false
	}
	fi, err := os.Lstat(p)
	if err != nil {
		return false
	}
	st, _ := filestamp.Of(fi)
	return st == was
}

// Bad is a loose object that is not what its name says.
type Bad struct {
	Path, Name, Why string
	Was             bool // the store had an object of that name before
}

// Changes is what is new or changed in an object store since its
// snapshot, sorted by what it takes to trust it.
type Changes struct {
	// Bad are the loose objects that are not the object their name names
	// (the others are proven and need nothing).
	Bad []Bad
	// Packs are the .idx files of packs whose pack or index is new or
	// changed: git trusts an index's names for the pack's content, so
	// each needs proving (git verify-pack) before git reads it.
	Packs []string
	// Gone are the files of the snapshot that are no longer there (an
	// object, a pack or its index deleted: history the person may have
	// lost), by slash-separated path under the store.
	Gone []string
	// Other are the other files: what git trusts for objects without
	// checking (commit-graph, multi-pack-index, a pack's .rev or .bitmap,
	// info/alternates) and what is no object at all. Git rebuilds or does
	// without what it needs of these.
	Other []string
}

// Changed proves every loose object of the store that is new or changed
// since the snapshot and sorts every other new or changed file. (Where
// the system gives no stamp, every file counts as changed.)
func (o *Objects) Changed() Changes {
	var c Changes
	packs := map[string]bool{}
	seen := map[string]bool{}
	o.each(func(rel string, st filestamp.Stamp, regular bool) {
		seen[rel] = true
		if was, had := o.stamp[rel]; had && was == st && st != (filestamp.Stamp{}) {
			return
		}
		p := filepath.Join(o.dir, filepath.FromSlash(rel))
		dir, file := path.Split(rel)
		dir = strings.TrimSuffix(dir, "/")
		switch {
		case IsLooseName(dir, file) && regular:
			name := dir + file
			if why := CheckLoose(p, name); why != "" {
				_, had := o.stamp[rel]
				c.Bad = append(c.Bad, Bad{Path: p, Name: name, Why: why, Was: had})
			}
		case dir == "pack" && (strings.HasSuffix(file, ".pack") || strings.HasSuffix(file, ".idx")) && regular:
			idx := strings.TrimSuffix(strings.TrimSuffix(p, ".pack"), ".idx") + ".idx"
			if !packs[idx] {
				packs[idx] = true
				c.Packs = append(c.Packs, idx)
			}
		default:
			c.Other = append(c.Other, p)
		}
	})
	for rel := range o.stamp {
		if !seen[rel] && gone(filepath.Join(o.dir, filepath.FromSlash(rel))) {
			c.Gone = append(c.Gone, rel)
		}
	}
	slices.Sort(c.Gone)
	return c
}

// gone says whether nothing is at p (an error other than that is not
// taken for a deletion).
func gone(p string) bool {
	_, err := os.Lstat(p)
	return errors.Is(err, fs.ErrNotExist)
}
