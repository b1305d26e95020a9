package runner

// The snapshot's untracked files through git's untracked cache, kept in a
// private index in the user's state directory.
//
// Listing untracked files walks every directory of the work tree (at
// 500,000 files, about half the snapshot). git's untracked cache (the UNTR
// index extension) records, per directory, its stat data and the
// untracked names in it, so a later scan reads only the directories whose
// stat data changed. Sentinel never writes the person's index, and every
// other git call runs with the cache off (internal/hardgit): the cache
// lives in a private copy of the person's index,
//
//	$XDG_STATE_HOME/sentinel/untracked/<project>/<checksum>.index
//
// where <checksum> is the trailing checksum of the person's index it was
// copied from. Only its untracked list is used (`git status -unormal`, the
// one git command that reads and writes the cache in git 2.39; a wholly
// untracked directory it names is listed by ls-files), and that depends on
// the index only through which paths are tracked: when the person's index
// changes at all, its checksum does, and the private index is made again
// from a fresh copy (the old one removed) with no cache in it.
//
// Why a cache here cannot hide a file:
//   - No coder can write it: the user's state directory is hidden in every
//     sandbox. It is used only if it is a regular file owned by this user
//     and writable by nobody else, in a directory likewise; else it is
//     removed and made again. Whatever cache the person's index carries is
//     dropped from the copy: the cache is only ever what Sentinel's own git
//     calls recorded.
//   - A directory is read again when any of its stat data differ from what
//     the cache recorded, ctime and inode included, which no process can
//     set back: core.trustctime and core.checkStat are forced on (a
//     repository's config could turn them off, and then a file made in a
//     directory whose mtime is then set back would stay hidden), as is
//     fsmonitor off. git rereads a directory whose recorded mtime is not
//     older than the index file (racily clean); the index file is dated to
//     before the scan that wrote it, so a directory changed during a scan
//     is read again. The cache records the .gitignore files and
//     info/exclude it was built with.
//
// What remains: git 2.39 as Debian builds it compares times to the whole
// second. A process that writes the person's project while a snapshot
// reads it (a coder of `sentinel exec`; never a `sentinel run` coder, which
// writes only its copy) could make a file in a directory within the same
// second as a scan read that directory, and set the directory's mtime
// back: that file is missing from snapshots until the directory changes
// again. Closing it needs the cache's nanoseconds compared (git built with
// USE_NSEC, or Sentinel reading the UNTR extension itself).
//
// Anything unexpected (no state dir, an index with no checksum, a git
// call failing) falls back to the plain walk, `git ls-files --others`.

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/userstate"
)

// untrackedCacheConfig is what every git call on the private index gets:
// the cache on, every stat field trusted, one whole index file written.
var untrackedCacheConfig = []string{
	"-c", "core.untrackedCache=true",
	"-c", "core.trustctime=true",
	"-c", "core.checkStat=default",
	"-c", "core.splitIndex=false",
	"-c", "core.fsmonitor=false",
	"-c", "status.showUntrackedFiles=normal",
}

// untrackedCacheOn turns the cache on. It is off: measured on the
// 500k-file bench repository at load 30-60, `git status` on the private
// index (3.8 CPU-s) costs more than the `ls-files --others` walk it
// replaces (2.1 CPU-s), because status also lstats every tracked file,
// which diff-index does beside it anyway (3.4 CPU-s). The gain needs one
// `git status --porcelain=v2` on the private index in place of both scans
// (issue 33 point 6, left to do); tests turn it on.
var untrackedCacheOn = false

// listUntracked is `git ls-files -z --others --exclude-standard`'s output
// for the work tree: untracked files that are not ignored, NUL-terminated,
// a nested repository as "dir/".
func listUntracked(ctx context.Context, g gitCmd, head snapshotHead) (string, error) {
	if untrackedCacheOn {
		if idx, err := privateIndex(ctx, g, head); err == nil {
			if out, err := untrackedByCache(ctx, g, idx); err == nil {
				return out, nil
			}
		}
	}
	return g.run(ctx, "ls-files", "-z", "--others", "--exclude-standard", "--", ".")
}

// untrackedByCache lists through the private index idx: `git status
// -unormal` names untracked files and wholly untracked directories (and
// updates the cache in idx); ls-files lists the files in those directories.
func untrackedByCache(ctx context.Context, g gitCmd, idx string) (string, error) {
	gi := g.with("GIT_INDEX_FILE="+idx, "GIT_OPTIONAL_LOCKS=1")
	args := append(append([]string{}, untrackedCacheConfig...),
		"status", "--porcelain", "-z", "--untracked-files=normal", "--ignore-submodules=all", "--no-renames")
	// git compares a directory's times with the cache's to the second
	// (it is built without USE_NSEC) and takes a directory whose recorded
	// mtime is not older than the index file as changed: dated to before
	// the scan began, the index makes every directory changed during the
	// scan be read again next time (git dates it after, so a directory
	// changed again in the second it was read would be missed).
	began := time.Now().Add(-time.Second)
	out, err := gi.run(ctx, args...)
	if err != nil {
		return "", err
	}
	if st, err := os.Stat(idx); err == nil && st.ModTime().After(began) {
		if err := os.Chtimes(idx, began, began); err != nil {
			return "", err
		}
	}
	var files strings.Builder
	var dirs []string
	for _, rec := range strings.Split(out, "\x00") {
		if len(rec) < 4 {
			continue
		}
		p, ok := strings.CutPrefix(rec, "?? ")
		switch {
		case !ok:
			// A tracked path whose file is gone or changed type: status
			// does not look into a directory made in its place, ls-files
			// does.
			if p := rec[3:]; rec[1] == 'D' || rec[1] == 'T' {
				if st, err := os.Lstat(filepath.Join(g.dir, filepath.FromSlash(p))); err == nil && st.IsDir() {
					dirs = append(dirs, p+"/")
				}
			}
		case strings.HasSuffix(p, "/"):
			dirs = append(dirs, p)
		default:
			files.WriteString(p)
			files.WriteByte(0)
		}
	}
	if len(dirs) > 0 {
		// The person's index has the same tracked paths as idx.
		more, err := g.run(ctx, append([]string{"--literal-pathspecs", "ls-files", "-z", "--others", "--exclude-standard", "--"}, dirs...)...)
		if err != nil {
			return "", err
		}
		files.WriteString(more)
	}
	return files.String(), nil
}

// privateIndex returns the private index for the person's index as it is
// now, making it when there is none.
func privateIndex(ctx context.Context, g gitCmd, head snapshotHead) (string, error) {
	sum, err := indexChecksum(head.index, len(head.tree)/2)
	if err != nil {
		return "", err
	}
	dir, err := untrackedCacheDir(g.dir)
	if err != nil {
		return "", err
	}
	idx := filepath.Join(dir, sum+".index")
	if st, err := os.Lstat(idx); err == nil {
		if st.Mode().IsRegular() && ownedPrivately(st) == nil {
			return idx, nil
		}
		if err := os.RemoveAll(idx); err != nil {
			return "", err
		}
	}
	tmp, err := os.CreateTemp(dir, "new-*.tmp")
	if err != nil {
		return "", err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	// copyIndex keeps the mtime: git's racily clean entries stay so.
	if err := copyIndex(head.index, tmp.Name()); err != nil {
		return "", err
	}
	gi := g.with("GIT_INDEX_FILE=" + tmp.Name())
	if _, err := gi.run(ctx, "-c", "core.splitIndex=false", "update-index", "--no-untracked-cache"); err != nil {
		return "", err
	}
	if err := os.Rename(tmp.Name(), idx); err != nil {
		return "", err
	}
	// One private index per project: those of earlier versions of the
	// person's index are of no more use.
	if names, err := os.ReadDir(dir); err == nil {
		for _, n := range names {
			if n.Name() != sum+".index" && !strings.HasPrefix(n.Name(), "new-") {
				os.RemoveAll(filepath.Join(dir, n.Name()))
			}
		}
	}
	return idx, nil
}

// untrackedCacheDir is the project's directory of private indexes, made
// 0700 and refused unless this user's alone.
func untrackedCacheDir(root string) (string, error) {
	state, err := userstate.Dir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(state, "untracked", projectKey(&Project{Root: root}))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	for _, d := range []string{filepath.Dir(dir), dir} {
		st, err := os.Lstat(d)
		if err != nil {
			return "", err
		}
		if !st.IsDir() {
			return "", fmt.Errorf("%s is not a directory", d)
		}
		if err := ownedPrivately(st); err != nil {
			return "", fmt.Errorf("%s: %w", d, err)
		}
	}
	return dir, nil
}

// indexChecksum is the index file's trailing checksum (hashLen bytes) in
// hex: it changes whenever any byte of the index does. An index written
// without one (index.skipHash) has none to offer.
func indexChecksum(index string, hashLen int) (string, error) {
	f, err := os.Open(index)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if hashLen <= 0 {
		return "", errors.New("no hash length")
	}
	if _, err := f.Seek(-int64(hashLen), io.SeekEnd); err != nil {
		return "", err
	}
	sum := make([]byte, hashLen)
	if _, err := io.ReadFull(f, sum); err != nil {
		return "", err
	}
	if bytes.Count(sum, []byte{0}) == hashLen {
		return "", errors.New("the index has no checksum")
	}
	return hex.EncodeToString(sum), nil
}
