package runner

// The snapshot's scan through git's untracked cache, in a private index
// kept in the user's state directory (issue 33 point 6).
//
// Listing untracked files walks every directory of the work tree. git's
// untracked cache (the UNTR index extension) records, per directory, its
// stat data and the untracked names in it, so a later scan reads only the
// directories whose stat data changed. It lives in an index, and Sentinel
// never writes the person's index (every other git call runs with the
// cache off, internal/hardgit): the cache lives in a private copy of it,
//
//	$XDG_STATE_HOME/sentinel/untracked/<project>/<checksum>.index
//
// <checksum> being the trailing checksum of the person's index it was
// copied from: when the person's index changes at all, a fresh copy is
// made (with no cache in it) and the old one removed. One
// `git status --porcelain=v2 -uall` on the private index then stands for
// both scans of snapshot_changes.go (diff-index against HEAD, ls-files
// --others): its tracked entries are the person's, so what is staged is
// the same, and it refreshes the copy's stat data, so a file touched but
// unchanged is not read again next time.
//
// Why the cache cannot hide a file:
//   - No coder can write it: the state directory is hidden in every
//     sandbox; the directory and file are used only if this user's alone
//     (else the scan falls back). A cache the person's index carries is
//     dropped from the copy.
//   - A directory is read again when any of its stat data differ from what
//     the cache recorded; core.trustctime and core.checkStat are forced on
//     (a repository's config could turn them off) and fsmonitor off. A
//     coder can set a directory's mtime back after making a file in it;
//     it cannot set the ctime, which the kernel sets to now on every
//     change, the mtime's included.
//   - But git 2.39 as built here compares those times to the whole second:
//     a directory read in second S, changed in S and its mtime set back in
//     S looks unchanged (TestUntrackedCacheSameSecondMtimeGame shows git
//     missing it). So after every scan that wrote the private index,
//     Sentinel reads it back (snapshot_untracked_index.go), and if any
//     stat record in it, a directory's or a file's, has a ctime not older
//     than one second before the scan began, the private index is removed:
//     the next snapshot starts from a fresh copy and walks everything.
//     Only an index every record of which was older than its scan is kept,
//     and a change to such a record's file or directory gives it a newer
//     ctime, which git sees.
//   - The file system must move a directory's mtime and ctime when names
//     in it change, as git's `update-index --test-untracked-cache` checks;
//     fsSupportsCache checks the same, without that test's sleeps (6 s),
//     by setting the times back before each change, in the run's scratch
//     directory, used only when it is on the work tree's device.
//
// Anything unexpected (no state dir, an index with no checksum or of
// version 4, a git call failing, another snapshot of the project holding
// the lock) falls back to the plain scans.

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

	"github.com/sentinelhq/sentinel/internal/filelock"
	"github.com/sentinelhq/sentinel/internal/filestamp"
	"github.com/sentinelhq/sentinel/internal/userstate"
)

// snapshotOptions are how a snapshot scans.
type snapshotOptions struct {
	// cacheDir is the project's private untracked-cache directory; ""
	// scans without the cache.
	cacheDir string
	// now is the clock the cache's records are judged by; nil: time.Now.
	now func() time.Time
	// afterScan, when set, runs between the scans and the check that the
	// person's index did not change under them.
	afterScan func()
}

// defaultSnapshotOptions has the cache on, in the user's state dir, where
// it can be: a run's snapshot.
func defaultSnapshotOptions(p *Project) snapshotOptions {
	state, err := userstate.Dir()
	if err != nil {
		return snapshotOptions{}
	}
	return snapshotOptions{cacheDir: filepath.Join(state, "untracked", projectKey(p))}
}

// untrackedCacheConfig is what every git call on the private index gets:
// the cache on (made for -uall), every stat field trusted, one whole
// version 2/3 index file written.
var untrackedCacheConfig = []string{
	"-c", "core.untrackedCache=true",
	"-c", "status.showUntrackedFiles=all",
	"-c", "core.trustctime=true",
	"-c", "core.checkStat=default",
	"-c", "core.splitIndex=false",
	"-c", "core.fsmonitor=false",
	"-c", "index.skipHash=false",
	"-c", "status.renames=false",
}

// scanWithCache is both scans of worktreeChanges through the private
// index: the tracked changes as diff-index's raw entries would give them
// and the untracked files as ls-files --others would (NUL-terminated).
func scanWithCache(ctx context.Context, g gitCmd, head snapshotHead, scratch string, o snapshotOptions) ([]rawDiffEntry, string, error) {
	if !fsSupportsCache(g.dir, scratch) {
		return nil, "", errors.New("the file system does not move directory times as the cache needs")
	}
	dir, err := privateCacheDir(o.cacheDir)
	if err != nil {
		return nil, "", err
	}
	lock, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, "", err
	}
	defer lock.Close()
	if err := filelock.TryLock(lock); err != nil {
		return nil, "", err // another snapshot of this project: scan without
	}
	defer filelock.Unlock(lock)
	hashLen := len(head.commit) / 2
	idx, err := privateIndex(ctx, g, head.index, dir, hashLen)
	if err != nil {
		return nil, "", err
	}
	before, err := os.Lstat(idx)
	if err != nil {
		return nil, "", err
	}
	now := time.Now
	if o.now != nil {
		now = o.now
	}
	// Records with a ctime in this second or the one before (the file
	// system's clock may lag this one) may be matched by a later change.
	since := now().Unix() - 1
	gi := g.with("GIT_INDEX_FILE="+idx, "GIT_OPTIONAL_LOCKS=1")
	out, err := gi.run(ctx, append(append([]string{}, untrackedCacheConfig...),
		"status", "--porcelain=v2", "-z", "--untracked-files=all", "--ignore-submodules=dirty", "--no-renames")...)
	if err != nil {
		os.Remove(idx)
		return nil, "", err
	}
	if after, err := os.Lstat(idx); err != nil || !sameFileVersion(before, after) {
		if err := checkPrivateIndex(idx, hashLen, since); err != nil {
			os.Remove(idx)
		}
	}
	entries, others, err := parseStatusV2(out)
	if err != nil {
		return nil, "", err
	}
	entries, err = dropIntentToAdd(ctx, g, head, entries)
	return entries, others, err
}

// dropIntentToAdd drops the removal of a path HEAD does not have. status
// reports an intent-to-add entry whose file is gone as a removed empty
// file (its HEAD mode and id those of the empty blob), where diff-index
// reports nothing; which it is, only HEAD's tree tells.
func dropIntentToAdd(ctx context.Context, g gitCmd, head snapshotHead, entries []rawDiffEntry) ([]rawDiffEntry, error) {
	var ask []string
	for _, e := range entries {
		if e.newMode == "000000" && e.oldOID == emptyBlob(len(head.commit)) {
			ask = append(ask, e.path)
		}
	}
	if len(ask) == 0 {
		return entries, nil
	}
	out, err := g.run(ctx, append([]string{"--literal-pathspecs", "ls-tree", "-z", "--name-only", head.commit, "--"}, ask...)...)
	if err != nil {
		return nil, err
	}
	inHead := map[string]bool{}
	for _, p := range strings.Split(out, "\x00") {
		inHead[p] = true
	}
	kept := entries[:0]
	for _, e := range entries {
		if e.newMode == "000000" && e.oldOID == emptyBlob(len(head.commit)) && !inHead[e.path] {
			continue
		}
		kept = append(kept, e)
	}
	return kept, nil
}

// emptyBlob is the empty file's object id for ids of hexLen digits.
func emptyBlob(hexLen int) string {
	if hexLen == 64 {
		return "473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813"
	}
	return "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
}

// checkPrivateIndex refuses an index holding a stat record whose ctime is
// since or later, or that cannot be read.
func checkPrivateIndex(idx string, hashLen int, since int64) error {
	data, err := os.ReadFile(idx)
	if err != nil {
		return err
	}
	s, err := readIndexStats(data, hashLen)
	if err != nil {
		return err
	}
	if s.newest >= since {
		return fmt.Errorf("a record changed at %d, as the scan began", s.newest)
	}
	return nil
}

// parseStatusV2 turns `git status --porcelain=v2 -z` records into
// diff-index's raw entries (HEAD against the work tree) and ls-files'
// list of untracked files.
func parseStatusV2(out string) ([]rawDiffEntry, string, error) {
	var entries []rawDiffEntry
	var others strings.Builder
	for _, rec := range strings.Split(out, "\x00") {
		switch {
		case rec == "":
		case strings.HasPrefix(rec, "? "):
			others.WriteString(rec[2:])
			others.WriteByte(0)
		case strings.HasPrefix(rec, "1 "), strings.HasPrefix(rec, "u "):
			// 1 XY sub mH mI mW hH hI path
			// u XY sub m1 m2 m3 mW h1 h2 h3 path (stage 2 is HEAD's side)
			var xy, mH, mI, mW, hH, hI, p string
			if rec[0] == '1' {
				f := strings.SplitN(rec, " ", 9)
				if len(f) != 9 || len(f[1]) != 2 {
					return nil, "", fmt.Errorf("git status: unexpected record %q", rec)
				}
				xy, mH, mI, mW, hH, hI, p = f[1], f[3], f[4], f[5], f[6], f[7], f[8]
			} else {
				f := strings.SplitN(rec, " ", 11)
				if len(f) != 11 || len(f[1]) != 2 {
					return nil, "", fmt.Errorf("git status: unexpected record %q", rec)
				}
				// As diff-index: the work tree's file against HEAD.
				xy, mH, mW, hH, hI, p = "UU", f[4], f[6], f[8], f[8], f[10]
			}
			e := rawDiffEntry{oldMode: mH, oldOID: hH, path: p}
			switch {
			case xy[1] == '.': // the work tree has the index's entry
				e.newMode, e.newOID = mI, hI
			default:
				e.newMode, e.newOID = mW, strings.Repeat("0", len(hI))
			}
			switch {
			case mH == "000000" && e.newMode == "000000":
				continue // staged, then removed: as diff-index, nothing
			case e.newMode == "000000":
				e.status = "D"
			case mH == "000000":
				e.status = "A"
			default:
				e.status = "M"
			}
			if e.newMode == "000000" {
				e.newOID = strings.Repeat("0", len(hI))
			}
			entries = append(entries, e)
		default:
			// 2 (a rename), ! (ignored): not asked for.
			return nil, "", unusual("git status record %q", rec)
		}
	}
	return entries, others.String(), nil
}

// privateCacheDir makes dir 0700 and refuses it (and its parent) unless
// this user's alone.
func privateCacheDir(dir string) (string, error) {
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

// privateIndex returns the private index for the person's index as it is
// now, making it from a copy when there is none.
func privateIndex(ctx context.Context, g gitCmd, personal, dir string, hashLen int) (string, error) {
	sum, err := indexChecksum(personal, hashLen)
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
	if err := copyIndex(personal, tmp.Name()); err != nil {
		return "", err
	}
	// Whole, version 2 or 3, no cache but the one Sentinel's scans make.
	gi := g.with("GIT_INDEX_FILE=" + tmp.Name())
	if _, err := gi.run(ctx, "-c", "core.splitIndex=false", "-c", "index.skipHash=false",
		"update-index", "--no-untracked-cache", "--index-version", "3"); err != nil {
		return "", err
	}
	if err := os.Rename(tmp.Name(), idx); err != nil {
		return "", err
	}
	// One private index per project: those of earlier versions of the
	// person's index are of no more use.
	if names, err := os.ReadDir(dir); err == nil {
		for _, n := range names {
			if name := n.Name(); strings.HasSuffix(name, ".index") && name != sum+".index" {
				os.Remove(filepath.Join(dir, name))
			}
		}
	}
	return idx, nil
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

// fsSupportsCache reports whether a directory's mtime and ctime move when
// a file or directory is made or removed in it, and its ctime when its
// mtime is set, on the work tree's file system (scratch must be on the
// same device as root). git's --test-untracked-cache waits out whole
// seconds between its steps; setting the times back a day before each
// step needs no wait.
func fsSupportsCache(root, scratch string) bool {
	rs, err1 := os.Stat(root)
	ss, err2 := os.Stat(scratch)
	if err1 != nil || err2 != nil {
		return false
	}
	r, ok1 := filestamp.Of(rs)
	s, ok2 := filestamp.Of(ss)
	if !ok1 || !ok2 || r.Dev != s.Dev {
		return false
	}
	d, err := os.MkdirTemp(scratch, "mtime-test-")
	if err != nil {
		return false
	}
	defer os.RemoveAll(d)
	old := time.Now().Add(-24 * time.Hour)
	steps := []func() error{
		func() error { return os.WriteFile(filepath.Join(d, "f"), nil, 0o600) },
		func() error { return os.Mkdir(filepath.Join(d, "s"), 0o700) },
		func() error { return os.Remove(filepath.Join(d, "f")) },
		func() error { return os.Remove(filepath.Join(d, "s")) },
	}
	for _, step := range steps {
		if os.Chtimes(d, old, old) != nil {
			return false
		}
		st, err := os.Stat(d)
		if err != nil {
			return false
		}
		set, ok := filestamp.Of(st)
		// Setting the mtime moved the ctime to now.
		if !ok || time.Now().Unix()-set.CtimeSec > 3600 {
			return false
		}
		if step() != nil {
			return false
		}
		if st, err = os.Stat(d); err != nil || time.Since(st.ModTime()) > time.Hour {
			return false
		}
	}
	return true
}
