package mcpserver

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// What one writing call is told it changed (callwrote.go) and what of
// that is flagged (callflags.go) comes from records of the rw paths taken
// at every start and every end of a writing call (an event). A client may
// send writing calls at once (two exec calls without waiting), and one
// window from a call's start to its end would then hold the other's
// changes too: the one that ended first was told the other's change as
// its own, and the other missed its own made before that. So each
// stretch between two events is given to the calls running during it:
// to one call alone, as its own; to more, to each of them as shared with
// the others, named ("while another writing call ran too: exec: …"), so
// no call is told another's change as its own. A stretch with no call
// running is the person's, given to none.
//
// With points on (checkpoint.go) the point's record of the place is the
// event's record. With them off (a bound, a failure) a stamp alone is
// taken (checkpoint.Stamp: one walk, nothing read or stored), so the flags
// and the changed paths are still told; stamps have their own bounds
// (stampMaxEntries, stampBudget) and stop, said once, past them.

// stampMaxEntries bounds a place stamped when points are off.
const stampMaxEntries = 4 * checkpoint.MaxCallPointEntries

// stampBudget bounds one event's stamps when points are off.
const stampBudget = 2 * checkpoint.CallPointBudget

// callWindow is the events' state, in callPoints (guarded by c.mu).
type callWindow struct {
	live  []*callPoint                    // the writing calls running now
	seen  map[string]*checkpoint.Manifest // rw path → the place at the last event
	reads map[string]*placeReads          // rw path → its makefiles, runner files and PATH folders as last read
	off   string                          // why no stamps are taken (points off too)
}

// callShare is what the stretches a call ran in gave it.
type callShare struct {
	live  bool                              // registered in the window, not yet ended
	wrote map[string]map[string]*wroteEntry // rw path → path → its change (callwrote.go)
	flags []placeDiff                       // each stretch's flags
}

// event records root as now and gives what changed since the last event
// to the calls running (c.mu held).
func (c *callPoints) event(root string, now *checkpoint.Manifest) {
	if c.win.seen == nil {
		c.win.seen, c.win.reads = map[string]*checkpoint.Manifest{}, map[string]*placeReads{}
	}
	prev := c.win.seen[root]
	c.win.seen[root] = now
	if prev == nil || prev == now || len(c.win.live) == 0 {
		return
	}
	d := c.made.drop(root, dropUnseen(root, checkpoint.Diff(prev, now), c.unseen)) // not Sentinel's own placeholders, nor what no tool reaches (callwrote.go)
	if len(d) == 0 {
		return
	}
	reads := c.win.reads[root]
	if reads == nil {
		reads = &placeReads{}
		c.win.reads[root] = reads
	}
	flags := append(reads.flagsOf(root, prev, d), c.goToolchainFlags(root, d)...) // callflags.go, callgotoolchain.go
	for _, p := range c.win.live {
		var with []string
		for _, o := range c.win.live {
			if o != p {
				with = append(with, shortWhat(o.what))
			}
		}
		p.share.add(root, d, with)
		if len(flags) > 0 {
			p.share.flags = append(p.share.flags, placeDiff{root: root, flags: flags, with: with})
		}
	}
}

// begin makes p one of the calls running (c.mu held).
func (c *callPoints) begin(p *callPoint) {
	p.share.live = true
	c.win.live = append(c.win.live, p)
}

// end takes p out of the calls running (c.mu held) and gives it what its
// stretches gave it.
func (c *callPoints) end(p *callPoint) {
	if !p.share.live {
		return
	}
	p.share.live = false
	c.win.live = slices.DeleteFunc(c.win.live, func(o *callPoint) bool { return o == p })
	p.diffs = p.share.flags
}

// liveOf is the running call whose point is n (c.mu held).
func (c *callPoints) liveOf(n int) *callPoint {
	for _, p := range c.win.live {
		if p.n == n {
			return p
		}
	}
	return nil
}

// stampBegin starts p's window when no point was taken for it: points are
// off, so each rw path is stamped.
func (c *callPoints) stampBegin(p *callPoint) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stampAll() {
		c.begin(p)
	}
}

// stampEnd ends p's window begun by stampBegin (with what its stretches
// gave it until then, when stamps stopped since).
func (c *callPoints) stampEnd(p *callPoint) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !p.share.live {
		return
	}
	c.stampAll()
	c.end(p)
}

// stampAll stamps each rw path as an event (c.mu held); false when stamps
// are off.
func (c *callPoints) stampAll() bool {
	if c.win.off != "" || len(c.roots) == 0 {
		return false
	}
	t0 := time.Now()
	skip := checkpoint.OwnDirs()
	for _, root := range c.roots {
		m, err := checkpoint.Stamp(root, checkpoint.Options{Skip: skip})
		switch {
		case err != nil:
			c.stampStop("a stamp failed: " + err.Error())
			return false
		case len(m.Entries) > stampMaxEntries:
			c.stampStop(fmt.Sprintf("%s has %d entries (more than %d)", root, len(m.Entries), stampMaxEntries))
			return false
		}
		c.event(root, m)
	}
	if took := time.Since(t0); took > stampBudget {
		c.stampStop(fmt.Sprintf("one took %s, more than %s", took.Round(time.Millisecond), stampBudget))
	}
	return true
}

// stampStop turns stamps off (c.mu held), saying why once: the calls
// running are told what they were given until then.
func (c *callPoints) stampStop(why string) {
	if c.win.off != "" {
		return
	}
	c.win.off = why
	c.warn("sentinel mcp: no more records of the rw paths around writing calls (" + textsafe.Line(why) + "): what a call changes and what of it runs code later is no longer told after it")
}

// maxWithNamed bounds the other calls an answer's line names as running
// with it. Each line named every call in flight: at 160 concurrent calls
// the "changed while another writing call ran too" line was kilobytes,
// on the model's answer and the person's terminal, per call.
const maxWithNamed = 5

// withNamed is the other calls running, sorted, the first maxWithNamed
// named and a count of the rest, as the changed paths are (named).
func withNamed(with []string) string {
	with = slices.Sorted(slices.Values(with))
	if len(with) <= maxWithNamed {
		return strings.Join(with, "; ")
	}
	return strings.Join(with[:maxWithNamed], "; ") + fmt.Sprintf(" and %d more", len(with)-maxWithNamed)
}

// shortWhat is a call as another call's answer names it.
func shortWhat(what string) string {
	if r := []rune(what); len(r) > 80 {
		return string(r[:79]) + "…"
	}
	return what
}
