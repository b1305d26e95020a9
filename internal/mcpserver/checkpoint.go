package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// Points before single tool calls: every call that can write the rw paths
// (exec, a playbook's commands, the file tools that change something) is
// preceded by a checkpoint of each rw path, in the same store, with the
// same bounds ([exec] checkpoint_*, checkpoint.MaxCallPoints…) as an
// in-place run's, so `sentinel undo ID --list` in that path lists the
// points and `sentinel undo ID --to N` puts it back as it was just before
// call N. The server is one record per rw path (kind "mcp", the audit's
// run id); after each call the place is recorded again as the record's
// "after", so undo tells the person's later changes from the calls'. A
// point is incremental (the stat fast path, then only changed files are
// read); a call the gate refuses leaves no point. A point that cannot be
// taken never fails the call: points stop, said once on standard error.

// writingOps are the tools that may change files under an rw path.
var writingOps = map[string]bool{"exec": true, "playbook": true, "edit": true, "move": true, "copy": true,
	"delete": true, "chmod": true, "chown": true, "upload_file": true}

// pointsFirst are the writing tools whose point is taken before the
// handler runs (their checks ask no one); exec and playbook take theirs
// once the gate has allowed them, just before the command runs.
var pointsFirst = map[string]bool{"edit": true, "move": true, "copy": true, "delete": true, "chmod": true, "chown": true, "upload_file": true}

// callPoints are the server's points, over every rw path.
type callPoints struct {
	id, task string
	lim      checkpoint.Limits
	roots    []string
	warn     func(string)

	mu     sync.Mutex
	places []*placePoints // each rw path's, opened at its first point
	off    string         // why no more points are taken
	taken  int
	// win gives each writing call the changes made while it ran
	// (callwindow.go); made is what Sentinel made itself (callwrote.go).
	win  callWindow
	made *heldMade
	// unseen are the locations no tool reaches (credentials, Sentinel's
	// state): what changes there is never a call's (callwrote.go).
	unseen []string
	// mounts name the other filesystems mounted in an rw path that a
	// place's first record found (checkpoint.OtherMount: not looked
	// into), until the call that took it tells them, once.
	mounts []string
}

// placePoints is one rw path's record.
type placePoints struct {
	store   *checkpoint.Store
	rec     *checkpoint.Record
	first   *checkpoint.Manifest // the place before the server's first call ("before")
	last    *checkpoint.Manifest // the place as last recorded
	lastRef string               // last's name in the record; "" when it is only the "after"
	isAfter bool                 // last is what "after" holds
}

func newCallPoints(id, task string, lim checkpoint.Limits, roots []string, warn func(string)) *callPoints {
	return &callPoints{id: id, task: task, lim: lim, roots: roots, warn: warn}
}

// stop turns points off (c.mu held), saying why once.
func (c *callPoints) stop(why string) {
	if c.off != "" {
		return
	}
	c.off = why
	c.warn("sentinel mcp: no more checkpoints before single tool calls (" + why + "); the points taken so far stay ('sentinel undo " + c.id + " --list' in each rw path)")
}

// open records each rw path that has no record yet as it is before its
// first point: at the first point, and after a reload that adds rw paths.
func (c *callPoints) open() error {
	skip := checkpoint.OwnDirs()
	for _, root := range c.roots {
		if c.placeOf(root) != nil {
			continue
		}
		s, err := checkpoint.Open(root)
		if err != nil {
			return err
		}
		m, err := checkpoint.Take(s, root, checkpoint.Options{Limits: c.lim, Prev: s.Latest(), Skip: skip, OpenUnlistable: true})
		if err != nil {
			return err
		}
		if len(m.Entries) > checkpoint.MaxCallPointEntries {
			return fmt.Errorf("%s has %d entries (more than %d)", root, len(m.Entries), checkpoint.MaxCallPointEntries)
		}
		rec := &checkpoint.Record{ID: c.id, Kind: "mcp", Place: root, Task: c.task, Started: time.Now().UTC(), NotCovered: len(m.NotCovered())}
		for _, e := range m.NotCovered() {
			if e.Skip == checkpoint.OtherMount {
				line := textsafe.Line(filepath.Join(root, filepath.FromSlash(e.Path))) + ": " + checkpoint.OtherMount + " (checkpoints and undo stop there)"
				c.warn("sentinel mcp: " + line)
				c.mounts = append(c.mounts, line)
			}
		}
		if err := s.SaveManifest(c.id, "before", m); err != nil {
			return err
		}
		c.places = append(c.places, &placePoints{store: s, rec: rec, first: m, last: m, lastRef: "before"})
	}
	return nil
}

// placeOf is root's record, nil when it has none yet.
func (c *callPoints) placeOf(root string) *placePoints {
	for _, pl := range c.places {
		if pl.rec.Place == root {
			return pl
		}
	}
	return nil
}

// setRoots makes roots the rw paths points are taken in from the next
// call on (a reload's): a new one is recorded at its first point; one no
// longer rw keeps its record and gets no more points.
func (c *callPoints) setRoots(roots []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.roots = slices.Clone(roots)
}

// save writes pl's record, keeping an undo's mark (`sentinel undo` may
// have undone this record since: the server must not take that back).
func (pl *placePoints) save() error {
	if disk, err := pl.store.Record(pl.rec.ID); err == nil {
		pl.rec.UndoneBy = disk.UndoneBy
	}
	return pl.store.SaveRecord(pl.rec)
}

// before takes the point before one call (described by what) and is its
// number, 0 when none was taken.
func (c *callPoints) before(what string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.off != "" {
		return 0
	}
	if c.taken >= checkpoint.MaxCallPoints {
		c.stop(fmt.Sprintf("the server reached %d points", checkpoint.MaxCallPoints))
		return 0
	}
	if len(c.roots) == 0 {
		return 0
	}
	t0 := time.Now()
	if err := c.open(); err != nil {
		c.stop("a checkpoint failed: " + err.Error())
		return 0
	}
	n := c.taken + 1
	skip := checkpoint.OwnDirs()
	call := textsafe.Line(strings.Join(strings.Fields(what), " "))
	if r := []rune(call); len(r) > 120 {
		call = string(r[:119]) + "…"
	}
	for _, root := range c.roots {
		pl := c.placeOf(root)
		ref := pl.lastRef
		switch {
		case checkpoint.Unchanged(root, pl.last, skip):
			if ref == "" { // the place as the last call left it: a name of its own
				ref = fmt.Sprintf("call-%d", n)
				if err := pl.store.SaveManifest(c.id, ref, pl.last); err != nil {
					c.stop("a checkpoint could not be saved: " + err.Error())
					return 0
				}
			}
		default:
			m, err := checkpoint.Take(pl.store, root, checkpoint.Options{Limits: c.lim, Prev: pl.last, Listable: pl.first, Skip: skip})
			if err != nil {
				c.stop("a checkpoint failed: " + err.Error())
				return 0
			}
			if ref == "" || len(checkpoint.Diff(pl.last, m)) > 0 {
				ref = fmt.Sprintf("call-%d", n)
				if err := pl.store.SaveManifest(c.id, ref, m); err != nil {
					c.stop("a checkpoint could not be saved: " + err.Error())
					return 0
				}
				pl.isAfter = false
			}
			pl.last = m
		}
		pl.lastRef = ref
		c.event(root, pl.last) // callwindow.go
		pl.rec.Points = append(pl.rec.Points, checkpoint.Point{N: n, Manifest: ref, Call: call, Time: time.Now().UTC()})
		if err := pl.save(); err != nil {
			c.stop("the record could not be saved: " + err.Error())
			return 0
		}
	}
	c.taken = n
	if took := time.Since(t0); took > checkpoint.CallPointBudget {
		c.stop(fmt.Sprintf("one took %s, more than %s", took.Round(time.Millisecond), checkpoint.CallPointBudget))
	}
	return n
}

// after records each rw path as call n left it (the record's "after");
// a call that was refused and changed nothing there leaves no point.
// It says whether the point was dropped; the call, no longer running,
// has what it changed (callwindow.go).
func (c *callPoints) after(n int, refused bool) (dropped bool) {
	if n == 0 {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.liveOf(n); p != nil {
		defer c.end(p)
	}
	dropped = refused
	skip := checkpoint.OwnDirs()
	for _, pl := range c.places {
		root := pl.rec.Place
		var now *checkpoint.Manifest // the place now, when the stat fast path could not tell
		unchanged := checkpoint.Unchanged(root, pl.last, skip)
		if !unchanged {
			m, err := checkpoint.Take(pl.store, root, checkpoint.Options{Limits: c.lim, Prev: pl.last, Listable: pl.first, Skip: skip})
			if err != nil {
				c.stop("a checkpoint failed: " + err.Error())
				return false
			}
			c.event(root, m) // callwindow.go
			now, unchanged = m, len(checkpoint.Diff(pl.last, m)) == 0
			if unchanged {
				pl.last = m // the same place, newer stamps
			}
		} else {
			c.event(root, pl.last)
		}
		if !refused || !unchanged {
			dropped = false
		}
		if refused && unchanged {
			for i, p := range pl.rec.Points {
				if p.N == n {
					pl.rec.Points = append(pl.rec.Points[:i], pl.rec.Points[i+1:]...)
					break
				}
			}
			_ = pl.save()
			continue
		}
		if !unchanged {
			pl.last, pl.lastRef, pl.isAfter = now, "", false
		}
		if !pl.isAfter || !pl.rec.HasAfter {
			if err := pl.store.SaveManifest(c.id, "after", pl.last); err != nil {
				c.stop("a checkpoint could not be saved: " + err.Error())
				return dropped
			}
			pl.isAfter = true
		}
		pl.rec.HasAfter, pl.rec.Ended = true, time.Now().UTC()
		if err := pl.save(); err != nil {
			c.stop("the record could not be saved: " + err.Error())
			return dropped
		}
	}
	return dropped
}

// pointKey carries a writing call's point through its handler.
type pointKey struct{}

// callPoint is one writing call's point: taken at most once, by the
// handler (exec, playbook) or before it (the file tools).
type callPoint struct {
	c    *callPoints
	tell *teller // says what a long point does
	what string
	n    int
	done bool
	// diffs are the call's flags, once finished (callflags.go); share is
	// what the stretches it ran in gave it (callwindow.go).
	diffs []placeDiff
	share callShare
	// mounts are the mount points its point found first (callPoints.mounts).
	mounts []string
}

// take takes the call's point, once (what describes the call; "" keeps
// the description handle gave it).
func (p *callPoint) take(what string) {
	if p == nil || p.done || p.c == nil {
		return
	}
	p.done = true
	if what != "" {
		p.what = what
	}
	done := p.tell.slow("taking a checkpoint of the rw paths before the call")
	p.n = p.c.before(p.what)
	p.c.mu.Lock()
	p.mounts, p.c.mounts = p.c.mounts, nil // told in this call's answer (flagLines)
	p.c.mu.Unlock()
	if p.n > 0 {
		p.c.mu.Lock()
		p.c.begin(p) // callwindow.go
		p.c.mu.Unlock()
	} else {
		p.c.stampBegin(p) // no point: a stamp of the place
	}
	done()
}

// pointOf is the point the handler of ctx's call may take (nil: none).
func pointOf(ctx context.Context) *callPoint {
	p, _ := ctx.Value(pointKey{}).(*callPoint)
	return p
}

// withPoint gives a writing call its point: taken now for a file tool,
// by the handler for exec and playbook (nil for a call that cannot write,
// or with no rw path).
func (s *Server) withPoint(ctx context.Context, op string, req *mcp.CallToolRequest) (context.Context, *callPoint) {
	if s.points == nil || !writingOps[op] {
		return ctx, nil
	}
	what := op
	if req != nil && req.Params != nil {
		what += ": " + argSummary(string(req.Params.Arguments))
	}
	p := &callPoint{c: s.points, tell: tellerOf(ctx), what: what}
	if pointsFirst[op] {
		p.take("")
	}
	return context.WithValue(ctx, pointKey{}, p), p
}

// finish records the place after the call (err: how it ended).
func (p *callPoint) finish(err error) {
	if p == nil || !p.done || p.c == nil {
		return
	}
	done := p.tell.slow("recording the rw paths as the call left them")
	defer done()
	if p.n == 0 {
		p.c.stampEnd(p) // callwindow.go
		return
	}
	var r *Refusal
	if dropped := p.c.after(p.n, errors.As(err, &r)); dropped {
		p.n = 0
	}
}

// number is the call's point, 0 for none.
func (p *callPoint) number() int {
	if p == nil {
		return 0
	}
	return p.n
}
