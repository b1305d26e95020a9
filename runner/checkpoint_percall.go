package runner

import (
	"crypto/sha256"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// Points before single tool calls (31.6): in place, each tool call the
// broker allows that can write (a shell command, a write or edit, an MCP
// tool) is preceded by a checkpoint of the place, so `sentinel undo RUN
// --to N` can put the place back as it was just before call N. Each point
// is incremental: the place is walked and stamped, and only a file whose
// stamp changed since the last point is read and stored (content-addressed,
// shared with every other checkpoint of the place); a point at which
// nothing changed shares the last point's manifest. The cost is bounded:
// at most maxCallPoints points a run, none for a place of more than
// maxCallPointEntries entries, and none after one took longer than
// callPointBudget (the run says so once).

const (
	maxCallPoints       = checkpoint.MaxCallPoints
	maxCallPointEntries = checkpoint.MaxCallPointEntries
	callPointBudget     = checkpoint.CallPointBudget
)

// callPoints is the per-call state of an in-place checkpoint.
type callPoints struct {
	last    *checkpoint.Manifest // the newest point's manifest (the run's before at first)
	lastRef string               // its name in the record
	off     string               // why no more points are taken ("" while they are)
	told    bool                 // the run was told (stopPoints)
	taken   int
	// index names the newest copy of the git index in the record and
	// indexSum is its hash: a point whose index is the same shares it.
	index    string
	indexSum [sha256.Size]byte
}

// writingKind says whether a request's tool may change the place: every
// kind but a read. A tool the adapters cannot name (KindOther: a
// multi-file patch, an agent's own tool) and a download (KindNet) may
// write as surely as a Write does.
func writingKind(k policy.Kind) bool { return k != policy.KindRead }

// callLine is a request in one line for the list of points.
func callLine(req approvals.Request) string {
	what := req.Command
	if what == "" {
		what = req.Path
	}
	if what == "" {
		what = req.Tool
	}
	s := textsafe.Line(string(req.Kind) + ": " + strings.Join(strings.Fields(what), " "))
	if r := []rune(s); len(r) > 120 {
		s = string(r[:119]) + "…"
	}
	return s
}

// beforeCall takes the point before an allowed call (the broker's
// BeforeAllow). It never fails the call: a point that cannot be taken
// turns points off for the run, told once.
func (c *inPlaceCheckpoint) beforeCall(req approvals.Request, emit func(journal.Lane, journal.Kind, string, any)) {
	if c == nil || !writingKind(req.Kind) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	cp := &c.calls
	if c.ended || cp.off != "" {
		return
	}
	if cp.last == nil {
		cp.last, cp.lastRef = c.before, "before"
		if len(c.before.Entries) > maxCallPointEntries {
			cp.off = fmt.Sprintf("the place has %d entries (more than %d)", len(c.before.Entries), maxCallPointEntries)
		}
	}
	if cp.off == "" && cp.taken >= maxCallPoints {
		cp.off = fmt.Sprintf("the run reached %d points", maxCallPoints)
	}
	if cp.off != "" {
		c.stopPoints(cp.off, emit)
		return
	}
	t0 := time.Now()
	n := cp.taken + 1
	ref := cp.lastRef
	skip := checkpointSkip()
	// Most calls change nothing (a read, a search, a build into an ignored
	// dir it left as it was): a stat of every entry tells that, and the
	// point shares the last one's manifest, as a full walk would find.
	if !checkpoint.Unchanged(c.rec.Place, cp.last, skip) {
		m, err := checkpoint.Take(c.store, c.rec.Place, checkpoint.Options{Limits: c.lim, Prev: cp.last, Listable: c.before, Skip: skip})
		if err != nil {
			c.stopPoints("a checkpoint failed: "+err.Error(), emit)
			return
		}
		if len(checkpoint.Diff(cp.last, m)) == 0 {
			// The same place, with newer stamps to compare against next time
			// (a file touched just before the last point is trusted now).
			cp.last = m
		} else {
			ref = fmt.Sprintf("call-%d", n)
			if err := c.store.SaveManifest(c.rec.ID, ref, m); err != nil {
				c.stopPoints("a checkpoint could not be saved: "+err.Error(), emit)
				return
			}
			cp.last, cp.lastRef = m, ref
		}
	}
	index, err := c.pointIndex(n)
	if err != nil {
		c.stopPoints("the git index could not be kept: "+err.Error(), emit)
		return
	}
	c.rec.Points = append(c.rec.Points, checkpoint.Point{N: n, Manifest: ref, Call: callLine(req), Time: time.Now().UTC(), Index: index})
	if err := c.store.SaveRecord(c.rec); err != nil {
		c.rec.Points = c.rec.Points[:len(c.rec.Points)-1]
		c.stopPoints("the record could not be saved: "+err.Error(), emit)
		return
	}
	cp.taken = n
	if took := time.Since(t0); took > callPointBudget {
		c.stopPoints(fmt.Sprintf("one took %s, more than %s", took.Round(time.Millisecond), callPointBudget), emit)
	}
}

// pointIndex keeps the git index as it is before call n (c.mu held) and
// is the name of its copy in the record: the last copy when the index is
// the same, a new one when it changed. "" for a place without git.
func (c *inPlaceCheckpoint) pointIndex(n int) (string, error) {
	if c.gitDir == "" || c.calls.index == "" {
		return "", nil
	}
	b, err := readGitIndex(c.gitDir)
	if err != nil && !os.IsNotExist(err) {
		return "", err
	}
	sum := sha256.Sum256(b)
	if sum == c.calls.indexSum {
		return c.calls.index, nil
	}
	name := pointIndexName(n)
	if err := writeIndexCopy(c.store, c.rec.ID, name, b); err != nil {
		return "", err
	}
	c.calls.index, c.calls.indexSum = name, sum
	return name, nil
}

// stopPoints turns points off for the rest of the run (c.mu held) and
// says so on the system lane, once.
func (c *inPlaceCheckpoint) stopPoints(why string, emit func(journal.Lane, journal.Kind, string, any)) {
	if c.calls.told {
		return
	}
	c.calls.off, c.calls.told = why, true
	emit(journal.System, KindNotice, "in place: no more checkpoints before single tool calls in this run ("+why+"); 'sentinel undo' still puts back the whole run", nil)
}

// pointsNote is the end-of-run line about the points ("" for none).
func (c *inPlaceCheckpoint) pointsNote() string {
	if c == nil {
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.calls.taken == 0 {
		return ""
	}
	return fmt.Sprintf("in place: %d checkpoint(s) before single tool calls; 'sentinel undo %s --list' shows them, 'sentinel undo %s --to N' puts the place back as it was just before call N",
		c.calls.taken, c.rec.ID, c.rec.ID)
}

// beforeAllowedCall is the broker's BeforeAllow for an in-place run with a
// checkpoint (nil otherwise): the point before each allowed call.
func (r *containment) beforeAllowedCall() func(approvals.Request) {
	if !r.opts.InPlace || r.ws == nil || r.ws.checkpoint == nil {
		return nil
	}
	c := r.ws.checkpoint
	return func(req approvals.Request) { c.beforeCall(req, r.emit) }
}
