package queue

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

// A write or edit is approved only by someone who was shown what it
// writes: the queue's approve carries the short hash that the full card
// (sentinel queue show ID, the page's whole card) printed, and the queue
// refuses an approval without it. The console draws its own card and
// holds its person to seeing all of it before approve works (tui).

// SeenOf is the short hash of what r writes, or "" when r writes nothing
// (a command, a host, a tool: its card's one line is all there is).
func SeenOf(r approvals.Request) string {
	if r.Kind != policy.KindWrite && r.Kind != policy.KindEdit {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s", r.Kind, r.Path, r.Input)
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// ContentOf is what r writes as the card shows it: a file's content, or
// an edit's old lines (-) and new lines (+); for content that cannot be
// shown as text (approvals.UnshownOf), its summary, each row marked
// SignSummary. ok is false when r writes nothing.
func ContentOf(r approvals.Request) (lines []Line, ok bool) {
	if u, unshown := approvals.UnshownOf(r); unshown {
		for _, l := range u.Lines() {
			lines = append(lines, Line{Sign: SignSummary, Text: l})
		}
		return lines, true
	}
	in, ok := approvals.WriteInputOf(r)
	if !ok {
		return nil, false
	}
	add := func(sign, s string) {
		for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
			lines = append(lines, Line{Sign: sign, Text: l})
		}
	}
	for _, e := range in.Replacements() {
		if e.Old != "" {
			add("-", e.Old)
		}
		add("+", e.New)
	}
	return lines, true
}

// SignSummary marks a row of the summary of a content that cannot be
// shown as text (approvals.Unshown): not a line of the content.
const SignSummary = "#"

// Line is one line of a write's content or an edit's diff, as the run
// sent it (a viewer makes it safe to draw).
type Line struct {
	Sign string `json:"sign"` // "+", "-", or SignSummary
	Text string `json:"text"`
}

// checkSeen refuses an approval of a write or edit, from a place that
// does not draw its own whole card, that does not carry the hash of the
// content it was shown.
func checkSeen(e Entry, a Answer) error {
	want := SeenOf(e.Request)
	if a.Decision != Approve || want == "" || a.Via == "console" || a.Seen == want {
		return nil
	}
	if a.Seen == "" {
		return fmt.Errorf("request %s writes %s and its content has not been shown: read it with `sentinel queue show %s` (or in sentinel console), then approve with --seen HASH as it prints",
			e.ID, clip(e.Request.Path, 200), e.ID)
	}
	return fmt.Errorf("request %s: --seen %s is not the hash of its content: read it again with `sentinel queue show %s`", e.ID, clip(a.Seen, 20), e.ID)
}
