package gitdir

import (
	"compress/zlib"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"regexp"
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

// Loose is an object store's loose objects as they were: each one's
// stamp (identity, change time), by "xx/rest" name.
type Loose struct {
	dir   string
	stamp map[string]filestamp.Stamp
}

// SnapLoose remembers the loose objects of the object store dir (a
// missing store is an empty one).
func SnapLoose(dir string) *Loose {
	l := &Loose{dir: dir, stamp: map[string]filestamp.Stamp{}}
	l.each(func(rel string, st filestamp.Stamp) { l.stamp[rel] = st })
	return l
}

// each calls f with every loose object file of the store and its stamp.
func (l *Loose) each(f func(rel string, st filestamp.Stamp)) {
	dirs, _ := os.ReadDir(l.dir)
	for _, d := range dirs {
		if !d.IsDir() || !looseDirName().MatchString(d.Name()) {
			continue
		}
		files, _ := os.ReadDir(filepath.Join(l.dir, d.Name()))
		for _, e := range files {
			if !looseFileName().MatchString(e.Name()) {
				continue // git's temp files and the like: not objects
			}
			fi, err := e.Info()
			if err != nil {
				continue
			}
			st, _ := filestamp.Of(fi)
			f(d.Name()+"/"+e.Name(), st)
		}
	}
}

// Bad is a loose object that is not what its name says.
type Bad struct {
	Path, Name, Why string
	Was             bool // the store had an object of that name before
}

// Changed proves every loose object of the store that is new or changed
// since the snapshot, and is those that are not the object their name
// names. (Where the system gives no stamp, every object is proven.)
func (l *Loose) Changed() []Bad {
	var bad []Bad
	l.each(func(rel string, st filestamp.Stamp) {
		was, had := l.stamp[rel]
		if had && was == st && st != (filestamp.Stamp{}) {
			return
		}
		name := strings.Replace(rel, "/", "", 1)
		p := filepath.Join(l.dir, filepath.FromSlash(rel))
		if why := CheckLoose(p, name); why != "" {
			bad = append(bad, Bad{Path: p, Name: name, Why: why, Was: had})
		}
	})
	return bad
}
