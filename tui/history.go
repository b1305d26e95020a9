package tui

import (
	"errors"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// This file is the panes' memory beyond their window: each pane keeps its
// newest lines (ring.go); a line older than those is read back from the
// run's journal when the view scrolls to it or a search goes past the kept
// lines, by replaying the journal through the same ingest that made the
// lines (so line numbers agree), keeping only a page of them.

// olderPageLines is how many lines one read-back page holds.
const olderPageLines = 1000

// olderPlaceholder stands for a line being read back from the journal.
const olderPlaceholder = "… reading older lines from the journal"

// olderPage is lines [first, first+len(lines)) of a pane, read back.
type olderPage struct {
	first   int64
	lines   []line
	loading bool  // a read is under way
	want    int64 // the line the read under way is for
}

func (o *olderPage) has() bool  { return len(o.lines) > 0 }
func (o *olderPage) end() int64 { return o.first + int64(len(o.lines)) }
func (o *olderPage) at(i int64) (line, bool) {
	if i < o.first || i >= o.end() {
		return line{}, false
	}
	return o.lines[i-o.first], true
}

// olderMsg is a page read back from the journal for a pane, and, for a
// search, the line that matched (-1: none older).
type olderMsg struct {
	id     paneID
	first  int64
	lines  []line
	search bool
	match  int64
	query  string
	err    error
}

// fetchOlder reads back the page a pane's view needs when it shows lines
// older than those kept and not yet read; nil when nothing is missing.
func (m *model) fetchOlder(p *pane, rows int) tea.Cmd {
	if p.offset == 0 || m.info.Journal == "" || p.older.loading {
		return nil
	}
	end := int64(p.count() - p.offset) // one past the newest line shown
	top := max(end-int64(rows), 0)     // the oldest line shown
	if top >= p.lines.first() {
		return nil
	}
	if _, ok := p.older.at(top); ok {
		if _, ok := p.older.at(min(end, p.lines.first()) - 1); ok {
			return nil
		}
	}
	// a page around the view, never past the kept lines
	to := min(p.lines.first(), top+olderPageLines/2)
	from := max(to-olderPageLines, 0)
	p.older.loading, p.older.want = true, top
	info, id, mk := m.info, p.id, p.marks.before(from)
	return func() tea.Msg {
		lines, err := readBack(info, id, mk, from, to, nil)
		return olderMsg{id: id, first: from, lines: lines, err: err}
	}
}

// searchOlder looks for query in a pane's lines older than before, in the
// journal; the newest such line that matches comes back with its page.
func (m *model) searchOlder(p *pane, query string, before int64) tea.Cmd {
	if m.info.Journal == "" || before <= 0 || p.older.loading {
		return nil
	}
	p.older.loading = true
	info, id, q := m.info, p.id, strings.ToLower(query)
	ms := append([]mark(nil), p.marks.at...)
	return func() tea.Msg {
		// newest first: from the mark nearest below before back to the
		// journal's start, a stretch between marks at a time
		match, end := int64(-1), before
		var err error
		for i := len(ms); i >= 0 && match < 0 && err == nil && end > 0; i-- {
			mk := mark{}
			if i > 0 {
				mk = ms[i-1]
			}
			if mk.line >= end {
				continue
			}
			_, err = readBack(info, id, mk, mk.line, end, func(i int64, l line) {
				if strings.Contains(strings.ToLower(l.text), q) {
					match = i
				}
			})
			end = mk.line
		}
		msg := olderMsg{id: id, search: true, match: match, query: query, err: err}
		if err == nil && match >= 0 {
			msg.first = max(match-olderPageLines/2, 0)
			mk := (&marks{at: ms}).before(msg.first)
			msg.lines, err = readBack(info, id, mk, msg.first, min(msg.first+olderPageLines, before), nil)
			msg.err = err
		}
		return msg
	}
}

// older takes a page read back from the journal.
func (m *model) older(msg olderMsg) tea.Cmd {
	p := m.panes[msg.id]
	p.older.loading = false
	if msg.err != nil {
		m.flash = "could not read older lines from the journal: " + msg.err.Error()
		return nil
	}
	if msg.search && msg.match < 0 {
		m.flash = "no older match"
		return nil
	}
	p.older.first, p.older.lines = msg.first, msg.lines
	if msg.search {
		p.query = msg.query
		p.showMatch(msg.match, m.paneRows(p.id))
		return nil
	}
	return m.fetchOlder(p, m.paneRows(p.id)) // the view may have moved on
}

// readBack replays the run's journal through a model of its own and
// returns pane id's lines [from, to), calling each (when not nil) with
// every line older than to. Only a page is held, whatever the journal's
// size. The replay starts at mk (a mark at or before from; the zero mark
// is the journal's start), or at the start when mk's event is not found.
func readBack(info SessionInfo, id paneID, mk mark, from, to int64, each func(int64, line)) ([]line, error) {
	d := &model{chrome: newChrome(Options{History: 1}), info: info}
	for i := paneID(0); i < numPanes; i++ {
		d.panes[i] = newPane(i, 1)
	}
	// The target pane's ring holds what one event adds (a pty chunk's
	// lines at most); they are taken after each event.
	target := d.panes[id]
	target.lines = &ring{buf: make([]line, 64), limit: 1 << 16, limitBytes: 16 << 20}
	var out []line
	var seen int64
	scan := func(fn func(journal.Event) error) error { return journal.ScanFile(info.Journal, fn) }
	if mk.after > 0 {
		if off, ok, err := journal.SeekAfter(info.Journal, mk.after); err == nil && ok {
			target.lines.total, seen = mk.line, mk.line
			scan = func(fn func(journal.Event) error) error { return journal.ScanFileFrom(info.Journal, off, fn) }
		}
	}
	errDone := errors.New("done")
	err := scan(func(ev journal.Event) error {
		if info.FullScreenCoder && ev.Is(journal.Coder, coderstream.Output) {
			return nil // a full-screen coder's output goes to the emulator, not to lines
		}
		d.ingestOne(ev)
		r := target.lines
		for n := max(seen, r.first()); n < r.total && n < to; n++ {
			l := r.at(int(n - r.first()))
			if n >= from {
				out = append(out, l)
			}
			if each != nil {
				each(n, l)
			}
		}
		seen = r.total
		if seen >= to {
			return errDone
		}
		return nil
	})
	if errors.Is(err, errDone) {
		err = nil
	}
	return out, err
}

// fetchScrolled reads back what scrolled-up panes lost to newer lines.
func (m *model) fetchScrolled() tea.Cmd {
	var cmds []tea.Cmd
	for _, p := range m.panes {
		if p.offset > 0 {
			cmds = append(cmds, m.fetchOlder(p, m.paneRows(p.id)))
		}
	}
	return tea.Batch(cmds...)
}

// noOlderMatch goes on searching older lines in the journal once the ones
// in memory have none.
func (m *model) noOlderMatch(p *pane, query string) tea.Cmd {
	before := p.oldestInMemory()
	if p.match >= 0 {
		before = min(before, p.match)
	}
	if cmd := m.searchOlder(p, query, before); cmd != nil {
		m.flash = "searching older lines in the journal"
		return cmd
	}
	m.flash = "no older match"
	return nil
}
