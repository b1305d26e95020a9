package tui

// line is one rendered line of a lane: plain text, no escapes.
type line struct {
	tag  tag
	text string
}

// ring keeps the newest lines up to a fixed number and a fixed size in
// bytes; older lines stay only in the journal (history.go reads them back
// on demand). Lines are addressed by absolute number (0 is the first line
// ever added), so a search result or scroll position survives eviction of
// older lines.
type ring struct {
	buf        []line // circular; grows up to limit
	start      int    // index in buf of the oldest kept line
	n          int    // lines kept
	total      int64  // lines ever added
	limit      int    // most lines kept
	bytes      int    // text bytes kept
	limitBytes int    // most text bytes kept (the newest line is always kept)
}

// maxPaneBytes bounds the text one pane keeps in memory: with DefaultHistory
// lines of up to maxPartial bytes, a count alone would allow 160 MB a pane.
const maxPaneBytes = 4 << 20

func newRing(capacity int) *ring {
	if capacity < 1 {
		capacity = 1
	}
	// grow lazily: most lanes never reach the limit
	return &ring{buf: make([]line, min(capacity, 1024)), limit: capacity, limitBytes: maxPaneBytes}
}

func (r *ring) add(l line) {
	r.total++
	for r.n > 0 && (r.n >= r.limit || r.bytes+len(l.text) > r.limitBytes) {
		r.bytes -= len(r.buf[r.start].text)
		r.buf[r.start] = line{}
		r.start = (r.start + 1) % len(r.buf)
		r.n--
	}
	if r.n == len(r.buf) { // full below the limit: grow, oldest first
		grown := make([]line, min(max(2*len(r.buf), 1), r.limit))
		for i := range r.n {
			grown[i] = r.at(i)
		}
		r.buf, r.start = grown, 0
	}
	r.buf[(r.start+r.n)%len(r.buf)] = l
	r.n++
	r.bytes += len(l.text)
}

// len is the number of lines kept.
func (r *ring) len() int { return r.n }

// first is the absolute number of the oldest kept line.
func (r *ring) first() int64 { return r.total - int64(r.n) }

// at returns the i-th kept line, 0 being the oldest kept.
func (r *ring) at(i int) line {
	return r.buf[(r.start+i)%len(r.buf)]
}
