package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/internal/filestamp"
	"github.com/sentinelhq/sentinel/internal/gitdir"
	"github.com/sentinelhq/sentinel/internal/gitincludes"
	"github.com/sentinelhq/sentinel/internal/hostbin"
)

// The look before each command (holdsNow) walks the rw paths and runs git
// config several times per repository: 80–320 ms per command on a loaded
// machine. Its answer is kept with a stamp (device, inode, size, mode,
// modification and change time, in ns; or how lstat failed) of every path
// the look read or resolved, and the next look whose stamps all match
// (and whose environment and rw paths' own git dirs are the same) is
// answered from it. What the look reads:
//
//   - the walk: every directory it listed (a new entry, one gone or
//     renamed moves the directory's times), each one it could not list,
//     each .git file or link and where it points, and each git dir found
//     with what makes it one (HEAD, objects, refs, commondir);
//   - git config, run in each rw path: the system and global config where
//     the environment names them, every directory above the rw path that
//     git's discovery looks at, and the config, config.worktree, HEAD
//     (includeIf onbranch), commondir and gitdir of each git dir found or
//     discovered (gitincludes.ConfigScopeFiles);
//   - every file a config includes, as written and as cleaned, present
//     or not (a missing one that appears is a change), every hooks
//     directory and program path before its links are resolved, and the
//     git program (gitincludes.Reads).
//
// Each path is stamped by resolving it one name at a time, each link on
// the way stamped and followed, so a link re-pointed anywhere on the way
// is a change. A directory is stamped by what it is (device, inode, mode,
// owner), its times left out, unless the look listed it or read it as a
// program's input: only the next name on the way matters of it, and that
// name has a stamp of its own (a missing one too). Its times would move
// with every new entry — /tmp and $HOME gain and lose them all the time
// (Claude Code rewrites ~/.claude.json by rename) — and drop the kept
// answer for nothing. A change a file system dates within lookRacy of the look's
// start could share its stamp with the state the look saw (timestamps
// come from a coarse clock), so an answer with such a stamp is not kept:
// the next look is a full one. When in doubt — a git run that failed other
// than by exiting, a stamp that cannot be taken, too many paths — the
// answer is not kept either.

// lookRacy is how recent a change the stamps do not trust.
var lookRacy = 2 * time.Second

// maxLookStamps bounds how many paths one answer is kept with.
const maxLookStamps = 200000

// lookAnswer is what a look found: each rw path's walk, and what the
// config of the repositories found sends git to, with the links on the
// way. It is shared: callers do not change it.
type lookAnswer struct {
	scans   map[string]gitdir.Scan
	targets []string
	links   map[string]string
}

// lookCache keeps the last answer and its stamps.
type lookCache struct {
	mu     sync.Mutex
	off    bool // every look is a full one (the benchmark's before)
	key    string
	stamps map[string]pathStamp
	answer *lookAnswer
	full   int // full looks done
}

// look is the answer for roots now: the kept one when nothing it read
// changed, else a full look's.
func (g *gitGuard) look(ctx context.Context, roots []string) (*lookAnswer, error) {
	c := &g.looks
	c.mu.Lock()
	defer c.mu.Unlock()
	key := g.lookKey(roots)
	if c.answer != nil && !c.off && c.key == key && stampsHold(c.stamps) {
		return c.answer, nil
	}
	c.answer, c.stamps = nil, nil
	start := time.Now()
	rctx, reads := gitincludes.WithReads(ctx)
	a, err := g.fullLook(rctx, roots)
	c.full++
	if err != nil || c.off || reads.Unsure() || ctx.Err() != nil {
		return a, err
	}
	if st, ok := lookStamps(roots, a, reads.Paths(), start); ok {
		c.key, c.stamps, c.answer = key, st, a
	}
	return a, nil
}

// fullLook walks roots and reads the config of every repository found.
func (g *gitGuard) fullLook(ctx context.Context, roots []string) (*lookAnswer, error) {
	a := &lookAnswer{scans: map[string]gitdir.Scan{}}
	for _, root := range roots {
		sc, err := scanTree(root, g.ownOf(root), "", maxGitDirs)
		if err != nil {
			return nil, fmt.Errorf("git dirs under %s: %w", root, err)
		}
		a.scans[root] = sc
	}
	var err error
	a.targets, a.links, err = targetsOf(ctx, roots, func(root string) []string { return a.scans[root].Dirs }, g.held)
	return a, err
}

// lookKey is what of the look is not in a file: the rw paths, their own
// git dirs, and the environment git and the look read.
func (g *gitGuard) lookKey(roots []string) string {
	var b strings.Builder
	for _, r := range roots {
		b.WriteString(r + "\x00" + g.ownOf(r) + "\x00")
	}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || slices.Contains([]string{"HOME", "XDG_CONFIG_HOME", "PATH", "PREFIX"}, k) {
			b.WriteString(kv + "\x00")
		}
	}
	return b.String()
}

// lookStamps stamps every path a look read; ok is false when the answer
// is not to be kept.
func lookStamps(roots []string, a *lookAnswer, reads []string, start time.Time) (map[string]pathStamp, bool) {
	s := stampSet{m: map[string]pathStamp{}}
	bin, _ := hostbin.Find("git")
	for _, root := range roots {
		sc := a.scans[root]
		for _, p := range slices.Concat([]string{root}, sc.Watch, sc.Unlisted) {
			s.read(p) // listed, or tried to be
		}
		for _, p := range sc.Pointers {
			s.add(p)
		}
		for _, p := range sc.Pointers {
			if t, ok := gitdir.FileTarget(p); ok {
				s.add(t)
			}
		}
		for _, d := range sc.Dirs {
			s.gitDir(d)
		}
		for _, p := range gitincludes.ConfigScopeFiles(root, bin) {
			s.add(p)
		}
	}
	for _, p := range slices.Concat(reads, a.targets) {
		s.read(p)
	}
	for l := range a.links {
		s.add(l)
	}
	if s.unsure || len(s.m) > maxLookStamps {
		return nil, false
	}
	edge := start.Add(-lookRacy).UnixNano()
	for _, st := range s.m {
		if st.err == "" && st.ctime >= edge {
			return nil, false // changed too close to the look to be told apart
		}
	}
	return s.m, true
}

// pathStamp is what lstat says of a path; of a directory stamped by what
// it is (isOnly), its identity, mode and owner alone.
type pathStamp struct {
	err                 string
	dev, ino, size      uint64
	mode, uid           uint32
	mtime, ctime, nlink int64
	isOnly              bool
}

// what is st without what moves with a directory's entries.
func (st pathStamp) what() pathStamp {
	if st.err != "" {
		return st
	}
	return pathStamp{dev: st.dev, ino: st.ino, mode: st.mode, uid: st.uid, isOnly: true}
}

// isDir says st is a directory's.
func (st pathStamp) isDir() bool { return st.err == "" && st.mode&0o170000 == 0o040000 }

// lstamp is p's stamp; ok is false when the system gives none.
func lstamp(p string) (pathStamp, bool) {
	fi, err := os.Lstat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return pathStamp{err: "missing"}, true
	case err != nil:
		return pathStamp{err: err.Error()}, true
	}
	st, ok := filestamp.Of(fi)
	if !ok {
		return pathStamp{}, false
	}
	return pathStamp{
		dev: st.Dev, ino: st.Ino, size: uint64(fi.Size()), mode: st.Mode, uid: uint32(st.UID), nlink: int64(st.Nlink),
		mtime: st.MtimeSec*1e9 + st.MtimeNsec, ctime: st.CtimeSec*1e9 + st.CtimeNsec,
	}, true
}

// stampsHold says whether every path still stamps as kept.
func stampsHold(m map[string]pathStamp) bool {
	for p, want := range m {
		got, ok := lstamp(p)
		if ok && want.isOnly {
			got = got.what()
		}
		if !ok || got != want {
			return false
		}
	}
	return true
}

// stampSet gathers stamps.
type stampSet struct {
	m      map[string]pathStamp
	unsure bool
}

// gitDir stamps what makes d a git dir and what git config reads of it.
func (s *stampSet) gitDir(d string) {
	for _, p := range []string{d, filepath.Join(d, "objects"), filepath.Join(d, "refs"), filepath.Join(d, "gitdir"), gitdir.Common(d)} {
		s.add(p)
	}
	for _, p := range gitdir.ConfigFiles(d) {
		s.add(p)
	}
}

// add stamps p and every name on the way to it, following links as the
// system does (a .. after a link goes up from where the link led); a
// directory, p too, by what it is.
func (s *stampSet) add(p string) { s.addPath(p, false) }

// read is add, but where p leads is stamped whole, a directory's times
// too: the look listed it, or read it as an input.
func (s *stampSet) read(p string) { s.addPath(p, true) }

func (s *stampSet) addPath(p string, whole bool) {
	if !filepath.IsAbs(p) {
		s.unsure = true
		return
	}
	s.resolve(p, 0, whole)
}

// resolve stamps the names of p one at a time and is where p leads (""
// when a name on the way is missing or not a directory); whole: the last
// name's stamp is whole even when it is a directory.
func (s *stampSet) resolve(p string, hops int, whole bool) string {
	if hops > 40 || len(s.m) > maxLookStamps {
		s.unsure = true
		return ""
	}
	cur := string(filepath.Separator)
	names := strings.Split(p, string(filepath.Separator))
	last := len(names) - 1
	for last >= 0 && (names[last] == "" || names[last] == ".") {
		last--
	}
	for i, name := range names {
		switch name {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, name)
		wholeHere := whole && i == last
		st, seen := s.m[next]
		if !seen || (wholeHere && st.isOnly) {
			var ok bool
			st, ok = lstamp(next)
			if !ok {
				s.unsure = true
				return ""
			}
			if st.isDir() && !wholeHere {
				st = st.what()
			}
			s.m[next] = st
		}
		if st.err != "" {
			return ""
		}
		if st.mode&0o170000 == 0o120000 { // a symbolic link (S_IFLNK)
			t, err := os.Readlink(next)
			if err != nil {
				s.unsure = true
				return ""
			}
			if !filepath.IsAbs(t) {
				t = cur + string(filepath.Separator) + t
			}
			if cur = s.resolve(t, hops+1, wholeHere); cur == "" {
				return ""
			}
			continue
		}
		cur = next
	}
	return cur
}
