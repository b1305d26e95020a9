package tui

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/themes"
	"github.com/sentinelhq/sentinel/tui/plain"
)

// --plain's tags take their colours from the lanes table and the theme:
// give each lane of a palette its own colour and every tag --plain prints
// comes out in it (a colour table of --plain's own fails this), brought
// down to 256 colours where that is all the terminal shows, and bare
// where it shows none.
func TestPlainTagsAreTheThemesLaneColours(t *testing.T) {
	p := themes.Dark
	p.System, p.Coder, p.Tool, p.Approval = "#010101", "#020202", "#030303", "#040404"
	p.Denied, p.Supervisor, p.Adversary = "#050505", "#060606", "#070707"
	want := map[journal.Lane]string{journal.System: "1;1;1", journal.Coder: "2;2;2", journal.Tool: "3;3;3",
		journal.Approval: "4;4;4", journal.Supervisor: "6;6;6", journal.Adversary: "7;7;7"}

	var out bytes.Buffer
	pr := plain.NewPrinter(&out, plainTags(colorprofile.TrueColor, p))
	for _, l := range journal.Lanes {
		out.Reset()
		pr.Print(journal.Event{Lane: l, Text: "x"})
		if !strings.Contains(out.String(), "38;2;"+want[l]+"m[") {
			t.Errorf("lane %s: %q, want its tag in the theme's colour %s", l, out.String(), want[l])
		}
	}
	out.Reset()
	pr.Print(journal.Event{Lane: journal.Approval, Kind: approvals.KindDecision, Text: "denied: y", Data: []byte(`{"decision":"deny"}`)})
	if !strings.Contains(out.String(), "38;2;5;5;5") || !strings.Contains(out.String(), "[DENIED]") {
		t.Errorf("a deny: %q, want [DENIED] in the theme's denied colour", out.String())
	}

	if got := plainTags(colorprofile.ANSI256, themes.Dark)("[CODER]"); !strings.Contains(got, "38;5;") || !strings.Contains(got, "[CODER]") {
		t.Errorf("on a 256-colour terminal: %q", got)
	}
	for _, prof := range []colorprofile.Profile{colorprofile.NoTTY, colorprofile.ASCII} {
		if plainTags(prof, themes.Dark) != nil {
			t.Errorf("profile %v paints tags; want none", prof)
		}
	}
}

// Every tag --plain prints for a lane is a label of the tags table, so
// it has the run screen's colour (a lane missing there would print bare).
func TestEveryPlainTagIsInTheTagsTable(t *testing.T) {
	labels := map[string]bool{}
	for _, tg := range tags {
		labels[tg.label] = true
	}
	for _, l := range journal.Lanes {
		if tag := plain.Tag(journal.Event{Lane: l}); !labels[tag] {
			t.Errorf("lane %s prints %s, which the tags table (lanes.go) does not have", l, tag)
		}
	}
}
