package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// consoleTable is the console's own keys, taken before the selected run's
// (the model's) while no card, prompt or overlay is open; its legend is
// the header's key hints.
func (k keyMap) consoleTable(reviews string) keyTable[*consolePage] {
	review := k.ConsoleReview
	if reviews != "" {
		review.SetHelp(review.Help().Key, "reviews "+textsafe.Line(reviews))
	}
	return keyTable[*consolePage]{name: "console", rows: []keyRow[*consolePage]{
		{key: k.PickRun, do: func(p *consolePage, kp tea.KeyPressMsg) tea.Cmd {
			d := 1
			if kp.String() == "<" {
				d = -1
			}
			p.step(d)
			return p.fetch()
		}, legend: 1, disabled: (*consolePage).pickRunRefused},
		// nothing to stop: the runs and their requests go on
		{key: k.ConsoleQuit, do: func(*consolePage, tea.KeyPressMsg) tea.Cmd { return tea.Quit }, legend: 2},
		{key: review, do: func(p *consolePage, _ tea.KeyPressMsg) tea.Cmd { return p.review() }, legend: 3,
			disabled: func(p *consolePage) string {
				if _, ok := p.reviewTarget(); !ok {
					return p.nothingToReview()
				}
				return ""
			}},
	}}
}

// table is the console's table for the runs as they are now.
func (p *consolePage) table() keyTable[*consolePage] {
	r, _ := p.reviewTarget()
	return p.c.keys.consoleTable(r.Run)
}

// legend is the header's key hints: a disabled key is left out.
func (p *consolePage) legend() string {
	t := p.table()
	var parts []string
	for _, b := range t.legendKeys() {
		for _, r := range t.rows {
			if r.key.Help() == b.Help() && (r.disabled == nil || r.disabled(p) == "") {
				parts = append(parts, b.Help().Key+" "+b.Help().Desc)
			}
		}
	}
	return strings.Join(parts, " · ")
}
