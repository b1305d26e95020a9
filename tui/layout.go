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

// gridMinWidth is the width from which the lanes sit in a grid, two a row
// (lanes.go).
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
		l.gridLanes(top, m.width, h)
		return l
	}
	l.stackLanes(top, m.width, h)
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
