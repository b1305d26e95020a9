package tui

// rect is a region of the screen in cells.
type rect struct{ x, y, w, h int }

func (r rect) contains(x, y int) bool {
	return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h
}

// layout is where everything goes for the current size and view.
type layout struct {
	panes  [numPanes]rect
	shown  [numPanes]bool
	grid   bool // two columns: a vertical separator at panes[paneCoder].w
	area   rect // the region the panes share
	bottom []string
}

func (l layout) rect(id paneID) (rect, bool) { return l.panes[id], l.shown[id] }

// gridMinWidth is the width from which the lanes sit in a 2×2 grid.
const gridMinWidth = 120

// layout computes the screen: a status bar on the first row, the panes, then
// the bottom section (card, chooser, prompt line) and the footer row.
func (m *model) layout() layout {
	var l layout
	l.bottom = m.bottomLines(m.width)
	top := 1
	h := max(m.height-top-1-len(l.bottom), 2)
	l.area = rect{0, top, m.width, h}
	switch m.view {
	case viewTimeline:
		l.set(paneTimeline, l.area)
		return l
	case viewZoom:
		l.set(m.focus, l.area)
		return l
	}
	if m.width >= gridMinWidth && h >= 8 {
		l.grid = true
		lw := (m.width - 1) / 2
		rw := m.width - 1 - lw
		th := (h + 1) / 2
		bh := h - th
		l.set(paneCoder, rect{0, top, lw, th})
		l.set(paneTool, rect{lw + 1, top, rw, th})
		l.set(paneApproval, rect{0, top + th, lw, bh})
		l.set(paneSupervisor, rect{lw + 1, top + th, rw, bh})
		return l
	}
	// stacked: the coder gets two fifths and what does not divide evenly;
	// the other three share the rest
	other := max((h-h*2/5)/3, 2)
	coder := max(h-3*other, 2)
	y := top
	for _, p := range []struct {
		id paneID
		h  int
	}{{paneCoder, coder}, {paneTool, other}, {paneApproval, other}, {paneSupervisor, other}} {
		if y+p.h > top+h {
			break
		}
		l.set(p.id, rect{0, y, m.width, p.h})
		y += p.h
	}
	return l
}

func (l *layout) set(id paneID, r rect) { l.panes[id], l.shown[id] = r, true }

// paneAt is the pane under a screen cell.
func (l layout) paneAt(x, y int) (paneID, bool) {
	for id := paneID(0); id < numPanes; id++ {
		if l.shown[id] && l.panes[id].contains(x, y) {
			return id, true
		}
	}
	return 0, false
}
