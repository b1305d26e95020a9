package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/themes"
)

// counterLegend is the help overlay's account of the status bar's ✓ ? ✗
// counters (ingest.go counts them): what each one counts, each entry
// wrapped to w cells, never cut.
func counterLegend(st *themes.Styles, w int) []string {
	entries := []struct {
		mark, text string
		style      func(...string) string
	}{
		{"✓N", "requests allowed — by a policy rule, a remembered approval, you or the supervisor", st.Allowed.Render},
		{"?N", "requests the policy could not decide alone (asked a remembered approval, you or the supervisor)", st.Asked.Render},
		{"✗N", "requests denied — by a policy rule, you, the supervisor or a timeout", st.Denied.Render},
	}
	out := []string{"", "status bar counters (this run's requests)"}
	for _, e := range entries {
		lines := strings.Split(ansi.Wrap(e.text, max(w-5, 10), " "), "\n")
		for i, l := range lines {
			lead := "    "
			if i == 0 {
				lead = e.style(e.mark) + "  "
			}
			out = append(out, lead+l)
		}
	}
	return out
}
