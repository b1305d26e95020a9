package runner

import (
	"compress/zlib"
	"context"
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

	"github.com/sentinelhq/sentinel/internal/nofollow"
)

// In place, the project's objects/ is read-only to the coder and its git
// writes new objects to a scratch object dir beside the shadow git dir
// (GIT_OBJECT_DIRECTORY; the project's objects are its alternate). Nothing
// the coder does can rewrite an object the person has; what it adds enters
// the project only here, at the end of the run, and only once proven: a
// loose object whose content does not hash to its name, or a pack that git
// cannot verify against its index, stays out (quarantined and named). What
// is not an object or a pack (commit-graph, multi-pack-index, bitmaps,
// info/alternates) is never moved in: git rebuilds what it needs.

var (
	looseDirName  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{2}$`) })
	looseFileName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{38}([0-9a-f]{24})?$`) })
	packName      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^pack-[0-9a-f]{40}([0-9a-f]{24})?\.pack$`) })
)

// maxLooseObject bounds how much of one loose object is read to check it.
const maxLooseObject = 1 << 30

// migrateObjects moves the proven objects of the scratch dir into the
// project's store and returns what it refused, each named with why. The
// scratch dir is removed when everything was dealt with.
func (g *gitGuard) migrateObjects(ctx context.Context) (refused []string, err error) {
	if g.Objects == "" {
		return nil, nil
	}
	format, _ := (gitCmd{dir: g.p.Root}).line(ctx, "rev-parse", "--show-object-format")
	hexLen := 40
	if format == "sha256" {
		hexLen = 64
	}
	dst := filepath.Join(g.common, "objects")
	refuse := func(path, why string) {
		if g.quarantine(path) {
			refused = append(refused, filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path)+": "+why)
		}
	}
	dirs, err := os.ReadDir(g.Objects)
	if err != nil {
		return nil, err
	}
	for _, d := range dirs {
		if !d.IsDir() || !looseDirName().MatchString(d.Name()) {
			continue
		}
		files, _ := os.ReadDir(filepath.Join(g.Objects, d.Name()))
		for _, f := range files {
			path := filepath.Join(g.Objects, d.Name(), f.Name())
			name := d.Name() + f.Name()
			if !f.Type().IsRegular() || !looseFileName().MatchString(f.Name()) || len(name) != hexLen {
				continue // git's temp files and the like: not objects
			}
			if why := checkLooseObject(path, name); why != "" {
				refuse(path, why)
				continue
			}
			to := filepath.Join(dst, d.Name(), f.Name())
			if _, err := os.Lstat(to); err == nil {
				continue // the person's store has it: theirs stays
			}
			if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
				return refused, err
			}
			if err := copyInto(path, to); err != nil {
				return refused, fmt.Errorf("move object %s into the project: %w", name, err)
			}
		}
	}
	packs, _ := os.ReadDir(filepath.Join(g.Objects, "pack"))
	for _, pk := range packs {
		if !pk.Type().IsRegular() || !packName().MatchString(pk.Name()) {
			continue
		}
		pack := filepath.Join(g.Objects, "pack", pk.Name())
		idx := strings.TrimSuffix(pack, ".pack") + ".idx"
		if st, err := os.Lstat(idx); err != nil || !st.Mode().IsRegular() {
			refuse(pack, "a pack without its index")
			continue
		}
		if _, err := (gitCmd{dir: g.Objects}).run(ctx, "verify-pack", "--", idx); err != nil {
			refuse(pack, "its objects do not match its index")
			refuse(idx, "the index of a pack that does not verify")
			continue
		}
		for _, f := range []string{pack, idx} { // the pack before its index
			to := filepath.Join(dst, "pack", filepath.Base(f))
			if _, err := os.Lstat(to); err == nil {
				continue
			}
			if err := copyInto(f, to); err != nil {
				return refused, fmt.Errorf("move pack %s into the project: %w", filepath.Base(f), err)
			}
		}
	}
	return refused, os.RemoveAll(g.Objects)
}

// checkLooseObject says why the loose object at path is not the object
// name names ("" when it is): zlib-compressed "type size\0content" whose
// hash is name.
func checkLooseObject(path, name string) string {
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
	if !ok || err != nil || n < 0 || n > maxLooseObject || (typ != "blob" && typ != "tree" && typ != "commit" && typ != "tag") {
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
