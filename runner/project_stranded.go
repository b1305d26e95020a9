package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// An in-place run's coder commits into a scratch object dir in the user's
// state dir (inplace_objects.go) while the person's branch moves at once.
// When that sentinel is killed (-9, a crash, a closed terminal) before the
// end of the run moves the objects in, the branch names a commit the
// repository does not have: to git, HEAD^{commit} does not resolve, and a
// project finder that took that for "no commits yet" would turn away every
// command that could repair it (run, runs, show, review all start from
// FindProject). So FindProject, on a HEAD it cannot resolve, first looks
// for the scratch object dirs of this project's in-place runs and recovers
// those of runs that are gone, exactly as the crash sweep does; a run that
// is still at work is named instead of being mistaken for an empty
// repository.

// strandedObjects is one in-place run's scratch object dir.
type strandedObjects struct {
	id  string // the run id (validated)
	dir string // its scratch object dir, recomputed from the project and id
}

// scratchObjectDirs lists the scratch object dirs of p's in-place runs that
// are still in the user's state dir. Their paths are recomputed from the
// project and a valid run id, never read from a record.
func (p *Project) scratchObjectDirs() []strandedObjects {
	probe, err := shadowDir(p, NewRunID(time.Now()))
	if err != nil {
		return nil
	}
	entries, err := os.ReadDir(filepath.Dir(probe))
	if err != nil {
		return nil
	}
	var out []strandedObjects
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".git.objects")
		if !ok || !ValidRunID(id) || !e.IsDir() {
			continue
		}
		if dir, err := shadowDir(p, id); err == nil {
			out = append(out, strandedObjects{id: id, dir: dir + ".objects"})
		}
	}
	return out
}

// recoverStrandedHead is FindProject's answer for a HEAD that does not
// resolve to a commit: nil once the objects of gone in-place runs are
// recovered and HEAD resolves, else the error that says why it does not.
func (p *Project) recoverStrandedHead(ctx context.Context) error {
	g := gitCmd{dir: p.Root}
	resolves := func() bool {
		_, err := g.line(ctx, "rev-parse", "--verify", "-q", "HEAD^{commit}")
		return err == nil
	}
	named, namedErr := g.line(ctx, "rev-parse", "--verify", "-q", "HEAD")
	if namedErr != nil || named == "" {
		return fmt.Errorf("%s: %w", p.Root, ErrNoCommits) // an unborn branch
	}
	stranded := p.scratchObjectDirs()
	if len(stranded) > 0 {
		// The crash sweep settles each gone run (its record says interrupted,
		// its journal tells what was moved in).
		SweepStale(ctx, p)
		if resolves() {
			return nil
		}
	}
	var live []string
	for _, s := range p.scratchObjectDirs() {
		if runAlive(p, s.id) {
			live = append(live, s.id)
			continue
		}
		// A gone run the sweep did not act on (its record is missing or
		// not Sentinel's): its objects are still proven one by one before
		// they move in, so where the dir came from does not matter.
		if dir, err := p.runDir(s.id); err == nil {
			if l, err := lockRun(dir); err == nil {
				for _, line := range recoverScratchObjects(ctx, p, s.id) {
					appendEvent(dir, s.id, journal.System, KindNotice, line, nil)
				}
				l.release()
				continue
			}
		}
		recoverScratchObjects(ctx, p, s.id)
	}
	if resolves() {
		return nil
	}
	if len(live) > 0 {
		return fmt.Errorf("%s: your branch points at commit %s, made by in-place run %s, which is still at work; its new objects enter your repository when it ends — finish that run (or end its sentinel) and try again", p.Root, short(named), strings.Join(live, ", "))
	}
	return fmt.Errorf("%s: HEAD points at commit %s, which is not in the repository's object store (check it with: git fsck)", p.Root, short(named))
}

// runAlive says whether run id's sentinel still holds its lock.
func runAlive(p *Project, id string) bool {
	dir, err := p.runDir(id)
	if err != nil {
		return false
	}
	if _, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
		return false
	}
	l, err := lockRun(dir)
	if err != nil {
		return true
	}
	l.release()
	return false
}
