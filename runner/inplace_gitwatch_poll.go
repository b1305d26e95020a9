package runner

import (
	"context"
	"slices"
	"sync"
	"time"
)

// unwatchedBeat is how often a directory the watch could not follow is
// looked at for a git dir the coder made in it.
const unwatchedBeat = 200 * time.Millisecond

// dirSet is a set of directories, safe for the watch's goroutines.
type dirSet struct {
	mu   sync.Mutex
	dirs []string
}

// add adds d unless a directory of the set holds it (a walk of that one
// covers d), dropping those d holds.
func (s *dirSet) add(d string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if slices.ContainsFunc(s.dirs, func(o string) bool { return within(d, o) }) {
		return
	}
	s.dirs = slices.DeleteFunc(s.dirs, func(o string) bool { return within(o, d) })
	s.dirs = append(s.dirs, d)
}

func (s *dirSet) list() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.dirs)
}

// pollUnwatched walks each directory the watch could not follow, on every
// beat until ctx ends, and quarantines a git dir or pointer the coder made
// there (what created does for a watched one). The walk of one covers its
// subdirectories, which cannot be watched either. The pause between walks
// is at least twice the last walk's time: a huge unwatched part costs at
// most a third of one core.
func (g *gitGuard) pollUnwatched(ctx context.Context, dirs *dirSet, told func(string)) {
	pause := unwatchedBeat
	for {
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		began := time.Now()
		for _, d := range dirs.list() {
			if g.dirIsGit(d) && !g.known(d) && within(d, g.p.Root) && g.quarantine(d) {
				told(d)
				continue
			}
			sub, _ := scanGitDirs(d, "")
			for _, p := range append(slices.Clone(sub.Pointers), sub.Dirs...) {
				if within(p, d) && !g.known(p) && g.quarantine(p) {
					told(p)
				}
			}
		}
		pause = max(unwatchedBeat, 2*time.Since(began))
	}
}
