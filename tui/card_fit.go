package tui

// A card's titles at any width: the card's header and the rule over its
// change keep every part whole. A header too wide for one rule goes on in
// a second row; the change's rule drops its helps, longest first, but its
// counter ("rows a–b of n") is always whole and exact.

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// ruleMin is what a rule keeps of its line besides its title: "──" before
// and at least one "─" after.
const ruleMin = 3

// titleRows draws a card header, the first of forms (each a list of
// parts, joined by "·") that fits one rule; when none does, the last is
// wrapped over more rows, part by part. No part is ever cut.
func (m *model) titleRows(w int, forms ...[]string) []string {
	st := m.styles
	for _, f := range forms {
		if t := " " + strings.Join(f, " · ") + " "; ansi.StringWidth(t)+ruleMin <= w {
			return []string{rule(st.CardTitle.Render(t), st.CardBorder, w)}
		}
	}
	rows := []string{rule("", st.CardBorder, w)}
	for _, l := range strings.Split(ansi.Wrap(strings.Join(forms[len(forms)-1], " · "), max(w-2, 1), " "), "\n") {
		rows = append(rows, padTo(st.CardTitle.Render(" "+l), w))
	}
	return rows
}

// counterRule is the rule over the change: what it is, the counter, the
// scroll keys and, until every row was seen, that approve waits. The
// first of these forms that fits w is drawn; the counter is in every one.
func (m *model) counterRule(c *cardContent, what string, n, w int) string {
	st := m.styles
	if n <= 0 || n >= c.total {
		return rule(st.Muted.Render(" "+what+" "), st.CardBorder, w)
	}
	counter := fmt.Sprintf("rows %d–%d of %d", c.scroll+1, c.scroll+n, c.total)
	k := m.keys
	keys := k.ContentUp.Help().Key + " " + k.ContentDown.Help().Key
	// every scroll key, where the row has room for them (g and G are
	// also home and end)
	all := k.ContentPageUp.Help().Key + " " + k.ContentPageDown.Help().Key + " g G " + keys
	unseen := max(c.seen, c.scroll+n) < c.total
	var forms [][]string
	add := func(parts ...string) { forms = append(forms, parts) }
	if unseen {
		add(what, counter, all+" scroll", "see it all to approve")
		add(what, counter, keys+" scroll", "see it all to approve")
		for _, ks := range []string{all, keys} {
			add(counter, ks+" scroll", "see it all to approve")
			add(counter, ks+" scroll", "see all first")
		}
		add(counter, keys, "see all first")
	} else {
		add(what, counter, all+" scroll")
		add(what, counter, keys+" scroll")
		add(counter, all+" scroll")
		add(counter, keys+" scroll")
	}
	add(counter, keys)
	add(counter)
	for _, f := range forms {
		t := " " + strings.Join(f, " · ") + " "
		if ansi.StringWidth(t)+ruleMin <= w {
			return rule(st.Muted.Render(t), st.CardBorder, w)
		}
	}
	// narrower than the counter itself: the counter alone, wrapped by
	// nobody — a screen this narrow shows the rest clipped, never a
	// wrong number
	return padTo(st.Muted.Render(fmt.Sprintf("%d–%d/%d", c.scroll+1, c.scroll+n, c.total)), w)
}
