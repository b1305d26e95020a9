package tui

import (
	"charm.land/lipgloss/v2"

	"github.com/sentinelhq/sentinel/themes"
)

// The run screen's lanes and line tags as data, all in this file. A new
// lane is a paneID before paneTimeline and its entry in lanes; the grid,
// the stacked layout, focus order, titles and search prompts follow from
// the table (which events it shows is its reader's, in ingest.go).
// A new kind of line is a tag and its entry in tags (its --plain label
// and its theme style, which --plain colours its tags with: plain_tags.go).

// paneID names a pane. The lane panes come first, in grid order; each
// has its entry in lanes below.
type paneID int

const (
	paneCoder paneID = iota
	paneTool
	paneApproval
	paneSupervisor
	paneTimeline
	numPanes
)

// laneSpec is one pane: its title and whether its lines carry their tag
// (a pane that mixes the lines of several lanes shows where each came from).
type laneSpec struct {
	title  string
	tagged bool
}

// lanes are the panes in grid order (left to right, top to bottom); the
// first lane gets the larger share when they are stacked. The timeline
// is every lane's lines in one pane.
var lanes = [numPanes]laneSpec{
	paneCoder:      {title: "CODER"},
	paneTool:       {title: "TOOL"},
	paneApproval:   {title: "APPROVAL"},
	paneSupervisor: {title: "SUPERVISOR · SYSTEM", tagged: true},
	paneTimeline:   {title: "TIMELINE", tagged: true},
}

// numLanes is how many lane panes the grid holds (the timeline is not one).
const numLanes = int(paneTimeline)

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

// tagSpec is how a line of one origin is labelled (as --plain prints it)
// and coloured.
type tagSpec struct {
	label string
	style func(themes.Styles) lipgloss.Style
}

var tags = [...]tagSpec{
	tagSystem:     {"[SYSTEM]", func(st themes.Styles) lipgloss.Style { return st.SystemTag }},
	tagCoder:      {"[CODER]", func(st themes.Styles) lipgloss.Style { return st.CoderTag }},
	tagTool:       {"[TOOL]", func(st themes.Styles) lipgloss.Style { return st.ToolTag }},
	tagApproval:   {"[APPROVAL]", func(st themes.Styles) lipgloss.Style { return st.ApprovalTag }},
	tagDenied:     {"[DENIED]", func(st themes.Styles) lipgloss.Style { return st.DeniedTag }},
	tagSupervisor: {"[SUPERVISOR]", func(st themes.Styles) lipgloss.Style { return st.SupervisorTag }},
	tagAdversary:  {"[ADVERSARY]", func(st themes.Styles) lipgloss.Style { return st.AdversaryTag }},
}

// label is the tag as the --plain output prints it.
func (t tag) label() string { return tags[t].label }

func tagStyle(st themes.Styles, t tag) lipgloss.Style { return tags[t].style(st) }

// gridLanes places the lanes two a row in area (x, top, w, h), a
// one-cell separator between the columns; the first rows take what does
// not divide evenly.
func (l *layout) gridLanes(top, w, h int) {
	lw := (w - 1) / 2
	rw := w - 1 - lw
	rows := (numLanes + 1) / 2
	y := top
	for r := 0; r < rows; r++ {
		rh := h / rows
		if r < h%rows {
			rh++
		}
		for c := 0; c < 2 && 2*r+c < numLanes; c++ {
			x, cw := 0, lw
			if c == 1 {
				x, cw = lw+1, rw
			}
			l.set(paneID(2*r+c), rect{x, y, cw, rh})
		}
		y += rh
	}
}

// stackLanes puts the lanes one under another: the first gets two fifths
// and what does not divide evenly, the others share the rest; a lane that
// no longer fits is left out.
func (l *layout) stackLanes(top, w, h int) {
	other := max((h-h*2/5)/(numLanes-1), 2)
	first := max(h-(numLanes-1)*other, 2)
	y := top
	for id := paneID(0); int(id) < numLanes; id++ {
		ph := other
		if id == 0 {
			ph = first
		}
		if y+ph > top+h {
			break
		}
		l.set(id, rect{0, y, w, ph})
		y += ph
	}
}
