package tui

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// allKeyTables is every mode's table, as the checks below see them.
func allKeyTables(k keyMap) []keyTableInfo {
	return []keyTableInfo{
		k.lanesTable(false).info(), k.lanesTable(true).info(), k.attachTable().info(), k.stoppingTable().info(),
		k.helpTable().info(), k.quitTable().info(), k.denyAllTable().info(), k.finishTable().info(),
		k.editTable().info(), k.cardTable().info(), k.chooserTable().info(),
		k.reviewTable(false).info(), k.reviewTable(true).info(), k.reviewHelpTable().info(),
		k.reviewConfirmTable().info(), k.reviewReasonTable().info(), k.reviewPageTable().info(),
		k.consoleTable("").info(), k.consoleTable("r1").info(),
	}
}

// helpDrawn is the help overlay each mode draws, as the person sees it
// (every column, on a screen large enough for all): the run screen's for
// the lanes and what opens over them, the review's for the review. A mode
// not here draws none.
func helpDrawn(t *testing.T) map[string]string {
	t.Helper()
	h := newHarness(t, testInfo(), "dark", 200, 80)
	lanes := ansi.Strip(strings.Join(h.m.helpLines(200, 200), "\n"))
	rh, _ := openReview(t, "dark", 200, 80)
	rh.pressReview("?")
	req, _ := fixtureRequest(t)
	r, a := newStandaloneReview(req, Options{Theme: "dark", NoColor: true})
	r.Update(teaSize(200, 80))
	a.screen.step = stepHelp
	out := map[string]string{"lanes": lanes, "attach": lanes, "card": lanes, "remember": lanes,
		"review": rh.screen(), "review (standalone)": ansi.Strip(a.render())}
	for k, v := range out { // a key and its description, one space apart
		out[k] = strings.Join(strings.Fields(v), " ")
	}
	return out
}

// TestKeyTablesAreComplete: every row of every mode says which keys it
// takes and what they do, acts when pressed, and is reachable (no earlier
// row of its table takes the same key); a summary row only labels keys
// other rows handle. Every acting row is documented: on its mode's footer,
// in its legend, in a column of the help overlay its mode draws (and then
// drawn there, label and description), or, told, in the mode's own words.
func TestKeyTablesAreComplete(t *testing.T) {
	drawn := helpDrawn(t)
	for _, tb := range allKeyTables(defaultKeys()) {
		owner := map[string]int{} // key → the first acting row that takes it
		for i, r := range tb.rows {
			h := r.key.Help()
			if len(r.key.Keys()) == 0 || h.Key == "" || strings.TrimSpace(h.Desc) == "" {
				t.Errorf("%s: row %d (%v) lacks a key, a label or a description (%q %q)", tb.name, i, r.key.Keys(), h.Key, h.Desc)
			}
			if r.group > 0 {
				help, ok := drawn[tb.name]
				if !ok {
					t.Errorf("%s: row %q is for a help column, but this mode draws no help overlay", tb.name, h.Key)
				} else if !strings.Contains(help, h.Key+" "+h.Desc) {
					t.Errorf("%s: row %q (%s) is not in the help overlay its mode draws:\n%s", tb.name, h.Key, h.Desc, help)
				}
			}
			if r.summary {
				continue
			}
			if r.footer <= 0 && r.group <= 0 && r.legend <= 0 && strings.TrimSpace(r.told) == "" {
				t.Errorf("%s: row %q (%s) is documented nowhere: give it a footer place, a help column or a legend, or say where its mode tells it (told)", tb.name, h.Key, h.Desc)
			}
			if !r.acts {
				t.Errorf("%s: row %q does nothing", tb.name, h.Key)
			}
			for _, s := range r.key.Keys() {
				if j, taken := owner[s]; taken {
					t.Errorf("%s: %q of row %q is dead: row %q takes it first", tb.name, s, h.Key, tb.rows[j].key.Help().Key)
					continue
				}
				owner[s] = i
			}
		}
		for _, r := range tb.rows {
			if !r.summary {
				continue
			}
			for _, s := range r.key.Keys() {
				if _, ok := owner[s]; !ok {
					t.Errorf("%s: summary %q names %q, which no row handles", tb.name, r.key.Help().Key, s)
				}
			}
		}
	}
}

// footerLabels is the key labels of a footer row as drawn.
func footerLabels(footer string) []string {
	var out []string
	for _, part := range strings.Split(strings.TrimSpace(ansi.Strip(footer)), " • ") {
		if f := strings.Fields(part); len(f) > 0 {
			out = append(out, f[0])
		}
	}
	return out
}

func labelsOf(tb keyTableInfo) []string {
	var out []string
	for _, r := range tb.rows {
		out = append(out, r.key.Help().Key)
	}
	return out
}

// TestFootersNameOnlyTheirModesKeys draws each mode's footer wide enough
// for every hint and checks that each key it names is a row of the table
// that handles keys in that mode.
func TestFootersNameOnlyTheirModesKeys(t *testing.T) {
	const w = 400
	h := newHarness(t, testInfo(), "dark", 120, 40)
	check := func(mode, footer string, tb keyTableInfo) {
		t.Helper()
		got := footerLabels(footer)
		if len(got) < 3 {
			t.Fatalf("%s: footer %q names almost nothing", mode, ansi.Strip(footer))
		}
		for _, l := range got {
			if !slices.Contains(labelsOf(tb), l) {
				t.Errorf("%s: the footer names %q, which the %s table does not have (footer %q)", mode, l, tb.name, ansi.Strip(footer))
			}
		}
	}
	check("lanes", h.m.footer(w), h.m.keys.lanesTable(false).info())
	h.m.coderIdle = true
	check("lanes, coder idle", h.m.footer(w), h.m.keys.lanesTable(true).info())
	if l := footerLabels(h.m.footer(w)); len(l) == 0 || l[0] != h.m.keys.Finish.Help().Key {
		t.Errorf("idle footer %v does not lead with %s", l, h.m.keys.Finish.Help().Key)
	}

	rh, _ := openReview(t, "dark", 120, 40)
	check("review in a run", rh.m.footer(w), rh.m.keys.reviewTable(false).info())

	req, _ := fixtureRequest(t)
	r, a := newStandaloneReview(req, Options{Theme: "dark", NoColor: true})
	r.Update(teaSize(w, 40))
	lines := strings.Split(a.render(), "\n")
	check("standalone review", lines[len(lines)-1], a.keys.reviewTable(true).info())

	p := newConsole(context.Background(), newChrome(Options{}), nil)
	legend := p.legend()
	tb := p.table().info()
	for _, part := range strings.Split(legend, " · ") {
		ok := false
		for _, r := range tb.rows {
			ok = ok || strings.HasPrefix(part, r.key.Help().Key+" ")
		}
		if !ok {
			t.Errorf("console header hint %q is no row of the console table", part)
		}
	}
}

// TestDisabledKeySaysWhy: a row that cannot act now puts its reason on the
// footer instead of acting (Attach with a card waiting).
func TestDisabledKeySaysWhy(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	h.m.queue = nil
	h.m.mode = modeNormal
	tb := h.m.keys.lanesTable(false)
	h.m.queue = append(h.m.queue, nil) // a card waits (attach refuses before it looks at it)
	if _, why, ok := tb.dispatch(h.m, keyMsg("i")); !ok || why == "" || h.m.mode == modeAttach {
		t.Fatalf("i with a card waiting: handled %v, reason %q, mode %v", ok, why, h.m.mode)
	}
}
