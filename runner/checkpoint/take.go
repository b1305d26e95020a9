package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"time"

	"github.com/sentinelhq/sentinel/internal/filestamp"
)

// modeBits are the parts of a mode a checkpoint keeps and restores.
const modeBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// racyMargin: a file whose ctime is this close to (or after) the start of
// the checkpoint that stamped it may have changed within the same clock
// tick after it was read, so its stamp is not trusted next time.
const racyMargin = 2 * time.Second

// unreadable starts the Skip of an entry that could not be read.
const unreadable = "unreadable: "

// OtherMount is the Skip of a directory on another filesystem than the
// place's top (st_dev differs: a mount point, like find -xdev stops at):
// it is listed once, not looked into. A /proc or a network share mounted
// inside an rw path would otherwise be read whole at the first record
// while every later writing call waits (31-ipatk15m), and undo cannot
// put another filesystem's contents back anyway.
const OtherMount = "another filesystem mounted here: not looked into, not covered"

// Options say how to take a checkpoint.
type Options struct {
	Limits Limits
	// Prev is an earlier checkpoint of the same place: a file whose stamp
	// (size, mtime, ctime, inode, device) is unchanged since is not read
	// again, its stored blob is reused.
	Prev *Manifest
	// Listable is the checkpoint the place is compared with (the one
	// before the run): a directory it had as a listed directory, or did
	// not have, that this user cannot list now was made so by the run (a
	// coder with the person's uid takes the read bit away to hide what it
	// left there, which git, a shell and `source` still reach by name).
	// It is opened (u+rwx) for the walk and the read, and its mode put
	// back at the end; it is recorded with the mode it had. A directory
	// the person could not list before stays one uncovered entry, unless
	// the first record opened it (OpenUnlistable).
	Listable *Manifest
	// OpenUnlistable, for the first record of a place (the one the run is
	// compared with), opens every directory this user cannot list but may
	// chmod (its own) as Listable's are opened: the coder has the
	// person's uid, so it can open one, change what is inside and take
	// the bits away again ("no files changed", nothing to undo:
	// 31-ipatk15). A directory of another user stays one uncovered entry:
	// the coder cannot open it either.
	OpenUnlistable bool
	// Skip are absolute paths under the place left out entirely (Sentinel's
	// own state dir when the place holds it).
	Skip []string
	// Ctx, when set, ends a record in progress: the walk stops at its next
	// entry and the read at its next file, and Take returns Ctx's error
	// (a SIGTERM to sentinel exec stops a record of a deep tree at once).
	Ctx context.Context

	// stampOnly records each file's stamp and no content (Stamp).
	stampOnly bool

	// Test seams (unset in the program), fields so that tests running in
	// parallel cannot see each other's: walked runs once the walk has
	// recorded an entry (for a directory: before it is listed),
	// betweenWalkAndRead after the walk, before any file is read — the
	// windows a concurrent process can swap things in; noOpenat2 reads as
	// on a kernel without openat2.
	walked             func(rel string)
	betweenWalkAndRead func()
	noOpenat2          bool
	// opened counts the path elements the walk opens or stats (linear in
	// the entries, not in their depth).
	opened func(elements int)
}

// Take records the place at root into s.
func Take(s *Store, root string, o Options) (*Manifest, error) {
	lim := o.Limits.withDefaults()
	ctx := o.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	start := time.Now()
	m := &Manifest{Root: root, Started: start}
	skip := make([]os.FileInfo, 0, len(o.Skip))
	for _, p := range o.Skip {
		if st, err := os.Lstat(p); err == nil && st.IsDir() {
			skip = append(skip, st)
		}
	}
	var reuseBefore time.Time
	if o.Prev != nil {
		reuseBefore = o.Prev.Started.Add(-racyMargin)
	}
	// Every listing and read goes through r: nothing is read through a
	// link that leads out of the place, whatever is swapped in.
	putTop, topMode, err := o.openTop(root)
	if err != nil {
		return nil, fmt.Errorf("checkpoint %s: %w", root, err)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("checkpoint %s: %w", root, err), putTop())
	}
	defer r.Close()
	var jobs []readJob
	var topDev uint64
	var topDevKnown bool
	reopened, reopen := o.reopener(r)
	// The walk lists each directory through r too: one swapped for a link
	// out of the place while the walk runs is unreadable, not listed.
	err = walkRoot(ctx, r, func(rel string, d fs.DirEntry, werr error) error {
		if rel == "." {
			if werr == nil {
				info, err := d.Info()
				if err != nil {
					return err
				}
				top := stampOf(rel, info)
				if _, ok := filestamp.Of(info); ok {
					topDev, topDevKnown = top.Dev, true
					m.Owners = true
				}
				top.Kind = KindDir
				top.Size, top.MTime, top.CTime, top.Ino, top.Dev = 0, 0, 0, 0, 0
				top.DefACL = defaultACL(root)
				top.XAttrs = xattrsOf(root)
				m.Top = &top
			}
			return werr // an unreadable place is no checkpoint
		}
		if werr != nil {
			// A directory that cannot be listed is visited twice: once
			// as a directory, then with the error. It is one entry, not
			// covered; the rest of the place is recorded as ever.
			un := Entry{Path: rel, Kind: KindOther, Skip: unreadable + werr.Error()}
			if n := len(m.Entries); n > 0 && m.Entries[n-1].Path == rel {
				m.Entries[n-1] = un
			} else {
				m.Entries = append(m.Entries, un)
			}
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		name := d.Name()
		if rel == ".sentinel" && d.IsDir() {
			return fs.SkipDir // the place's own Sentinel state (a nested project's is recorded: its config is news)
		}
		info, err := d.Info()
		if err != nil {
			m.Entries = append(m.Entries, Entry{Path: rel, Kind: KindOther, Skip: unreadable + err.Error()})
			return nil
		}
		if d.IsDir() {
			for _, s := range skip {
				if os.SameFile(s, info) {
					return fs.SkipDir
				}
			}
		}
		e := stampOf(rel, info)
		if d.IsDir() && topDevKnown && e.Dev != topDev && name != ".git" {
			m.Entries = append(m.Entries, Entry{Path: rel, Kind: KindOther, Skip: OtherMount})
			return fs.SkipDir
		}
		switch {
		case name == ".git":
			e = Entry{Path: rel, Kind: KindGit}
			m.Entries = append(m.Entries, e)
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		case d.IsDir():
			e.Kind = KindDir
			e.Size, e.MTime, e.CTime, e.Ino, e.Dev = 0, 0, 0, 0, 0
			abs := filepath.Join(root, filepath.FromSlash(rel))
			e.DefACL, e.XAttrs = defaultACL(abs), xattrsOf(abs)
		case info.Mode()&fs.ModeSymlink != 0:
			e.Kind = KindSymlink
			e.Target, err = readlinkOf(r, filepath.FromSlash(rel), d)
			if err != nil {
				e.Kind, e.Skip = KindOther, "unreadable link: "+err.Error()
			}
			e.Size, e.MTime, e.CTime, e.Ino, e.Dev = 0, 0, 0, 0, 0
		case info.Mode().IsRegular():
			e.Kind = KindFile
			if o.stampOnly {
				// Compared by stamp (Diff's sameContent), and by its
				// attributes as the record is: a stamp compared with a
				// record would otherwise read every attribute as removed.
				e.XAttrs = xattrsOf(filepath.Join(root, filepath.FromSlash(rel)))
				break
			}
			if prev, ok := o.Prev.Get(rel); ok && prev.Kind == KindFile && prev.Hash != "" && sameStamp(prev, &e) && e.Size <= lim.MaxFileBytes &&
				time.Unix(0, e.CTime).Before(reuseBefore) && s.has(prev.Hash) && m.Bytes+e.Size <= lim.MaxTotalBytes {
				e.Hash, e.XAttrs = prev.Hash, prev.XAttrs // an attribute set since changed the ctime
				m.Bytes += e.Size
				break
			}
			e.XAttrs = xattrsOf(filepath.Join(root, filepath.FromSlash(rel)))
			switch {
			case e.Size > lim.MaxFileBytes:
				e.Skip = fmt.Sprintf("over the per-file bound (%d bytes > %d)", e.Size, lim.MaxFileBytes)
			case m.Bytes+e.Size > lim.MaxTotalBytes:
				e.Skip = fmt.Sprintf("over the checkpoint's total bound (%d bytes)", lim.MaxTotalBytes)
			default:
				m.Read++
				m.Bytes += e.Size // released if the read fails
				jobs = append(jobs, readJob{rel: rel, at: len(m.Entries), size: e.Size, ino: e.Ino, dev: e.Dev})
			}
		default:
			e.Kind, e.Skip = KindOther, "not a regular file, directory or symlink"
			e.Size, e.MTime, e.CTime = 0, 0, 0
		}
		m.Entries = append(m.Entries, e)
		if o.walked != nil {
			o.walked(rel)
		}
		return nil
	}, reopen, o.opened)
	if err == nil && !o.stampOnly {
		if o.betweenWalkAndRead != nil {
			o.betweenWalkAndRead()
		}
		s.readAll(ctx, r, m, jobs, o.noOpenat2)
		err = ctx.Err()
	}
	if topMode != 0 && m.Top != nil {
		m.Top.Mode = topMode & modeBits // as the run left it, not as opened for the record
	}
	err = errors.Join(err, reopened.putBack(r), putTop())
	if err != nil {
		return nil, fmt.Errorf("checkpoint %s: %w", root, err)
	}
	sort.Slice(m.Entries, func(i, j int) bool { return m.Entries[i].Path < m.Entries[j].Path })
	if !o.stampOnly {
		s.anchorOutside(root, m)
	}
	m.Took = time.Since(start).Milliseconds()
	return m, nil
}

// readJob is a file the walk found that must be read: its path relative
// to the place, its entry's index, and the identity the walk saw.
type readJob struct {
	rel      string
	at       int
	size     int64 // counted against the total bound before the read
	ino, dev uint64
}

// readers is how many files are read at once: reading is mostly waiting
// on the file system, so more than the cores.
const readers = 8

// readAll reads and stores the files of jobs into their entries of m,
// each opened through r (the place), never through a link; noOpenat2
// leaves out openIn's one-call open; ctx ends it before its next file.
func (s *Store) readAll(ctx context.Context, r *os.Root, m *Manifest, jobs []readJob, noOpenat2 bool) {
	var dir *os.File
	if !noOpenat2 {
		var err error
		if dir, err = r.Open("."); err == nil { // the place itself, for openIn's one-call open
			defer dir.Close()
		} else {
			dir = nil
		}
	}
	ch := make(chan readJob)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range min(readers, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				e := &m.Entries[j.at]
				err := s.storeFile(r, dir, j, e)
				mu.Lock()
				if err != nil {
					m.Bytes -= j.size
					e.Hash, e.Skip = "", "unreadable: "+err.Error()
				} else {
					m.Bytes += e.Size - j.size // it changed while it was read
				}
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		if ctx.Err() != nil {
			break // the record is dropped: Take returns ctx's error
		}
		ch <- j
	}
	close(ch)
	wg.Wait()
}

func stampOf(rel string, info fs.FileInfo) Entry {
	e := Entry{Path: rel, Mode: info.Mode() & modeBits, Size: info.Size(), MTime: info.ModTime().UnixNano()}
	if st, ok := filestamp.Of(info); ok {
		e.CTime = st.CtimeSec*1e9 + st.CtimeNsec
		e.Ino, e.Dev = st.Ino, st.Dev
		e.UID, e.GID, e.owned = uint32(st.UID), uint32(st.GID), true
		if info.Mode().IsRegular() && st.Nlink > 1 {
			e.Out = st.Nlink // all its names, until anchorOutside counts those in the place
		}
	}
	return e
}

func sameStamp(a, b *Entry) bool {
	return a.Size == b.Size && a.MTime == b.MTime && a.CTime == b.CTime && a.Ino == b.Ino && a.Dev == b.Dev && a.Mode == b.Mode
}

// errChanged: the file changed while it was read.
var errChanged = errors.New("changed while it was recorded")

// errSwapped: what is at the path now is not the file the walk saw.
var errSwapped = errors.New("replaced after the walk found it (not the file the checkpoint listed)")

// storeFile stores the regular file of j and sets e's hash. It is opened
// from the place (openIn), so no link in any element of its path leads
// out of it (a directory swapped for a link to ~/.ssh after the walk is
// refused), never through a link at its last element, never blocking on a fifo
// swapped in; and it must be the file (device, inode) the walk saw, or it
// is not stored. A file that changes while it is read is read again, a
// few times.
func (s *Store) storeFile(r *os.Root, dir *os.File, j readJob, e *Entry) error {
	for try := 0; ; try++ {
		err := s.storeOnce(r, dir, j, e)
		if !errors.Is(err, errChanged) || try == 3 {
			return err
		}
	}
}

func (s *Store) storeOnce(r *os.Root, dir *os.File, j readJob, e *Entry) error {
	f, err := openIn(r, dir, j.rel, os.O_RDONLY|nonblock)
	if err != nil {
		return err
	}
	defer f.Close()
	before, err := f.Stat()
	if err != nil {
		return err
	}
	if !before.Mode().IsRegular() {
		return errors.New("not a regular file")
	}
	st := stampOf(e.Path, before)
	if st.Ino != j.ino || st.Dev != j.dev {
		return errSwapped
	}
	hash, n, err := s.put(io.LimitReader(f, st.Size+1))
	if err != nil {
		return err
	}
	after, err := f.Stat()
	if err != nil {
		return err
	}
	now := stampOf(e.Path, after)
	if n != st.Size || !sameStamp(&st, &now) {
		*e = now
		e.Kind = KindFile
		return errChanged
	}
	e.Mode, e.Size, e.MTime, e.CTime, e.Ino, e.Dev, e.UID, e.GID = st.Mode, st.Size, st.MTime, st.CTime, st.Ino, st.Dev, st.UID, st.GID
	e.Out = st.Out
	e.Hash = hash
	return nil
}
