// Package placelock owns the lock that lets one in-place run (`sentinel
// exec`, a shim, `sentinel undo`) act on a place at a time. A place is a
// folder by what it is (device and inode), not how its path is spelled;
// one place inside another counts as the same place, since both runs act
// on the inner one. The locks live in the user's state dir (places/), one
// file a place, each held with an advisory lock for its holder's life and
// naming the holder (run id, pid and the pid's own start time). A file
// whose lock is free, or whose holder's pid is gone or is another process
// now, is stale and taken over. It must not know what a run is beyond
// the Holder it is given.
package placelock

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/filelock"
	"github.com/sentinelhq/sentinel/internal/filestamp"
	"github.com/sentinelhq/sentinel/internal/nofollow"
	"github.com/sentinelhq/sentinel/internal/userstate"
)

// Holder is who holds a place.
type Holder struct {
	Run  string `json:"run"`  // the run's id
	Kind string `json:"kind"` // KindExec or KindUndo
	PID  int    `json:"pid"`
	// PIDStart is the process's creation time (ms since the epoch; 0:
	// unknown): with PID, the process's identity, so a reused pid is not
	// taken for the holder.
	PIDStart int64     `json:"pid_start,omitempty"`
	Started  time.Time `json:"started"`
	Root     string    `json:"root"` // the place as its holder spelled it
	Dev      uint64    `json:"dev"`
	Ino      uint64    `json:"ino"`
}

// Holder kinds.
const (
	KindExec = "exec" // an in-place run: sentinel exec or a shim
	KindUndo = "undo" // sentinel undo
)

// BusyError is a place another live holder acts on.
type BusyError struct {
	Holder Holder
	Root   string // the place asked for
	Moved  bool   // the holder's place is not where it was: it may be this one
	Inside bool   // the holder's place lies inside Root (else it is Root or holds it)
}

func (e *BusyError) Error() string {
	h := e.Holder
	who := fmt.Sprintf("in-place run %s (pid %d, started %s)", h.Run, h.PID, h.Started.Local().Format(time.DateTime))
	if h.Kind == KindUndo {
		who = fmt.Sprintf("sentinel undo (pid %d, started %s)", h.PID, h.Started.Local().Format(time.DateTime))
	}
	where := "in " + h.Root
	switch {
	case e.Moved:
		where = "in " + h.Root + ", which has moved since (it may hold this place)"
	case e.Inside:
		where = "in " + h.Root + ", inside " + e.Root
	case filepath.Clean(h.Root) != filepath.Clean(e.Root):
		where = "in " + h.Root + ", which holds " + e.Root
	}
	return fmt.Sprintf("%s is live %s: one in-place run at a time acts on a place; wait for it to end, or end it (Ctrl-C in its terminal, or kill %d)", who, where, h.PID)
}

// Lock is a held place.
type Lock struct {
	f    *os.File
	path string
}

// dirName is the locks' folder in the user's state dir; a variable for
// tests.
var dirName = "places"

// ourPID is the process a lock names; tests change it.
var ourPID = os.Getpid

// Acquire takes the place at root for h (its PID, PIDStart, Root, Dev and
// Ino are filled in), or fails at once with a *BusyError naming the live
// holder of the same place, of one inside it, or of one that holds it.
func Acquire(root string, h Holder) (*Lock, error) {
	dir, mu, err := enter()
	if err != nil {
		return nil, err
	}
	defer leave(mu)
	id, err := identify(root)
	if err != nil {
		return nil, err
	}
	if busy, err := scan(dir, root, id, true); err != nil || busy != nil {
		if busy != nil {
			return nil, busy
		}
		return nil, err
	}
	h.PID = ourPID()
	h.PIDStart = processStart(h.PID)
	h.Root, h.Dev, h.Ino = root, id.dev, id.ino
	path := filepath.Join(dir, id.file())
	f, err := nofollow.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock the place %s: %w", root, err)
	}
	if err := filelock.TryLock(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock the place %s (%s): %w", root, path, err)
	}
	b, _ := json.Marshal(h)
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("lock the place %s: %w", root, err)
	}
	return &Lock{f: f, path: path}, nil
}

// Live is the live holder of what is at path, as a *BusyError, or nil when
// there is none: for a folder, of the same place, one inside it or one
// that holds it; for a file or a path not there yet, of a place that
// holds it.
func Live(path string) error {
	dir, mu, err := enter()
	if err != nil {
		return err
	}
	defer leave(mu)
	at, folder := filepath.Clean(path), true
	for {
		if fi, err := os.Stat(at); err == nil && fi.IsDir() {
			break
		}
		folder = false
		if filepath.Dir(at) == at {
			return nil
		}
		at = filepath.Dir(at)
	}
	id, err := identify(at)
	if err != nil {
		return err
	}
	busy, err := scan(dir, at, id, folder)
	if busy != nil {
		return busy
	}
	return err
}

// Release lets the place go (nil: nothing).
func (l *Lock) Release() {
	if l == nil || l.f == nil {
		return
	}
	// Removed while still held: an Acquire that opened it before sees it
	// held, one after finds it gone.
	os.Remove(l.path)
	_ = filelock.Unlock(l.f)
	l.f.Close()
	l.f = nil
}

// enter opens the locks' folder and takes its mutex (every Acquire and
// Live scans and writes under it, so two starts do not both find a place
// free).
func enter() (string, *os.File, error) {
	dir, err := userstate.Path(dirName)
	if err != nil {
		return "", nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", nil, fmt.Errorf("the place locks' folder %s: %w", dir, err)
	}
	mu, err := nofollow.OpenFile(filepath.Join(dir, ".mutex"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return "", nil, fmt.Errorf("the place locks' folder %s: %w", dir, err)
	}
	if err := filelock.Lock(mu); err != nil {
		mu.Close()
		return "", nil, fmt.Errorf("the place locks' folder %s: %w", dir, err)
	}
	return dir, mu, nil
}

func leave(mu *os.File) {
	_ = filelock.Unlock(mu)
	mu.Close()
}

// identity is a folder's device and inode (on a system without them, a
// hash-free stand-in: its cleaned path, ino 0).
type identity struct {
	dev, ino uint64
	path     string
}

func (id identity) file() string {
	if id.ino == 0 {
		return "path-" + strings.NewReplacer("/", "_", "\\", "_", ":", "_").Replace(id.path) + ".lock"
	}
	return fmt.Sprintf("%d-%d.lock", id.dev, id.ino)
}

func (id identity) same(o identity) bool {
	if id.ino == 0 || o.ino == 0 {
		return id.path == o.path
	}
	return id.dev == o.dev && id.ino == o.ino
}

func identify(p string) (identity, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return identity{}, fmt.Errorf("the place %s: %w", p, err)
	}
	if !fi.IsDir() {
		return identity{}, fmt.Errorf("the place %s is not a folder", p)
	}
	st, ok := filestamp.Of(fi)
	if !ok {
		return identity{path: filepath.Clean(p)}, nil
	}
	return identity{dev: st.Dev, ino: st.Ino, path: filepath.Clean(p)}, nil
}

// ancestry is p and every folder above it, by identity.
func ancestry(p string) []identity {
	var out []identity
	for q := filepath.Clean(p); ; q = filepath.Dir(q) {
		if id, err := identify(q); err == nil {
			out = append(out, id)
		}
		if filepath.Dir(q) == q {
			return out
		}
	}
}

func contains(list []identity, id identity) bool {
	for _, x := range list {
		if x.same(id) {
			return true
		}
	}
	return false
}

// scan removes the stale locks in dir and is the first live one whose
// place holds root (id), or, when inside, lies inside it.
func scan(dir, root string, id identity, inside bool) (*BusyError, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("the place locks' folder %s: %w", dir, err)
	}
	mine := ancestry(root)
	for _, de := range des {
		if !strings.HasSuffix(de.Name(), ".lock") {
			continue
		}
		path := filepath.Join(dir, de.Name())
		h, live := holderOf(path)
		if !live {
			os.Remove(path) // stale: its holder died (under the mutex: no one makes it anew meanwhile)
			continue
		}
		theirs := identity{dev: h.Dev, ino: h.Ino, path: filepath.Clean(h.Root)}
		if contains(mine, theirs) {
			return &BusyError{Holder: h, Root: root}, nil // the same place, or one that holds it
		}
		if !inside {
			continue
		}
		at, err := identify(h.Root)
		if err != nil || !at.same(theirs) {
			return &BusyError{Holder: h, Root: root, Moved: true}, nil // cannot tell: fail closed
		}
		if contains(ancestry(h.Root), id) {
			return &BusyError{Holder: h, Root: root, Inside: true}, nil // one inside it
		}
	}
	return nil, nil
}

// holderOf reads the lock file at path: its holder, and whether it is
// live (its lock held, its pid that process still).
func holderOf(path string) (Holder, bool) {
	var h Holder
	f, err := nofollow.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return h, false
	}
	defer f.Close()
	if err := filelock.TryLock(f); err == nil {
		_ = filelock.Unlock(f)
		return h, false // nobody holds it: its holder died
	} else if !errors.Is(err, filelock.ErrLocked) {
		return h, false
	}
	b, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(b, &h) != nil {
		return h, false
	}
	return h, alive(h.PID, h.PIDStart)
}

// alive says whether pid is a live process that started at start (ms
// since the epoch; 0: not compared).
func alive(pid int, start int64) bool {
	if pid <= 0 {
		return false
	}
	now := processStart(pid)
	if now == 0 {
		return processExists(pid) && start == 0
	}
	return start == 0 || now == start
}
