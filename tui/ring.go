package tui

// tag says which lane a line came from, and so how it is labelled and
// coloured; tagDenied marks an approval line that was a deny.
type tag uint8

const (
	tagSystem tag = iota
	tagCoder
	tagTool
	tagApproval
	tagDenied
	tagSupervisor
	tagAdversary
)

// label is the tag as the --plain output prints it.
func (t tag) label() string {
	return [...]string{"[SYSTEM]", "[CODER]", "[TOOL]", "[APPROVAL]", "[DENIED]", "[SUPERVISOR]", "[ADVERSARY]"}[t]
}

// line is one rendered line of a lane: plain text, no escapes.
type line struct {
	tag  tag
	text string
}

// ring keeps the newest lines up to a fixed capacity; older lines stay only
// in the journal. Lines are addressed by absolute number (0 is the first line
// ever added), so a search result or scroll position survives eviction of
// older lines.
type ring struct {
	buf   []line
	start int   // index in buf of the oldest kept line
	n     int   // lines kept
	total int64 // lines ever added
	limit int   // most lines kept
}

func newRing(capacity int) *ring {
	if capacity < 1 {
		capacity = 1
	}
	// grow lazily: most lanes never reach the limit
	return &ring{buf: make([]line, 0, min(capacity, 1024)), limit: capacity}
}

func (r *ring) add(l line) {
	r.total++
	if len(r.buf) < r.limit {
		r.buf = append(r.buf, l)
		r.n++
		return
	}
	// full: overwrite the oldest
	r.buf[r.start] = l
	r.start = (r.start + 1) % len(r.buf)
}

// len is the number of lines kept.
func (r *ring) len() int { return r.n }

// first is the absolute number of the oldest kept line.
func (r *ring) first() int64 { return r.total - int64(r.n) }

// at returns the i-th kept line, 0 being the oldest kept.
func (r *ring) at(i int) line {
	return r.buf[(r.start+i)%len(r.buf)]
}
