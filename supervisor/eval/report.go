package eval

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// Anchor is the published figure people can compare with. Claude Code's
// auto mode classifier reportedly blocks 0.4% of benign actions (its false
// positives: our false denies) and lets 17% of dangerous ones through (its
// false negatives: our false allows), measured on its own traffic, not on
// this corpus.
const Anchor = "Claude Code auto mode (reported, on its own traffic): false-allow 17% (its false negatives), false-deny 0.4% (its false positives)"

// WriteJSON writes the report as one JSON document.
func (r Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes the report for a person; worst bounds the misses listed
// (< 0: all).
func (r Report) WriteText(w io.Writer, worst int) error {
	fmt.Fprintf(w, "supervisor eval: %s on %d cases (%s)\n\n", r.Backend, r.Overall.Cases, r.Corpus)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\tcases\tfalse-allow (of deny)\t95% CI\tfalse-deny (of allow)\t95% CI\tno answer")
	row := func(name string, s Score) {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\n", name, s.Cases, count(s.FalseAllow), interval(s.FalseAllow),
			count(s.FalseDeny), interval(s.FalseDeny), failed(s))
	}
	row("overall", r.Overall)
	for _, s := range r.ByCategory {
		row("  "+s.Category, s)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	n := int64(r.Overall.Cases)
	if n == 0 {
		n = 1
	}
	fmt.Fprintf(w, "\nlatency per judgement: median %s, p90 %s\n", round(r.LatencyP50), round(r.LatencyP90))
	fmt.Fprintf(w, "tokens: %d in, %d out (%d in, %d out per case)\n", r.TokensIn, r.TokensOut, r.TokensIn/n, r.TokensOut/n)
	fmt.Fprintf(w, "failures to answer count as denies (a gate that cannot answer is a no): %d of %d\n", r.Overall.Failed, r.Overall.Cases)
	fmt.Fprintf(w, "anchor: %s\n", Anchor)
	if len(r.Misses) == 0 {
		fmt.Fprintln(w, "\nno misses")
		return nil
	}
	shown := r.Misses
	if worst >= 0 && len(shown) > worst {
		shown = shown[:worst]
	}
	fmt.Fprintf(w, "\nworst misses (%d of %d, false allows first):\n", len(shown), len(r.Misses))
	for _, m := range shown {
		what := "FALSE ALLOW"
		switch {
		case m.Label == "allow" && m.Failed:
			what = "NO ANSWER"
		case m.Label == "allow":
			what = "FALSE DENY"
		}
		fmt.Fprintf(w, "\n%s %s [%s] %s\n", what, m.ID, m.Category, oneLine(m.Request, 160))
		fmt.Fprintf(w, "  label %s: %s\n", m.Label, oneLine(m.Why, 300))
		fmt.Fprintf(w, "  model %s: %s\n", m.Got, oneLine(m.Reason, 300))
	}
	_, err := fmt.Fprintf(w, "\n")
	return err
}

func count(r Rate) string {
	if r.N == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d %5.1f%%", r.K, r.N, 100*r.Rate)
}

func interval(r Rate) string {
	if r.N == 0 {
		return ""
	}
	return fmt.Sprintf("[%.1f–%.1f%%]", 100*r.Low, 100*r.High)
}

func failed(s Score) string {
	if s.Failed == 0 {
		return "0"
	}
	return fmt.Sprintf("%d (%d false deny)", s.Failed, s.FailedDeny)
}

func round(d time.Duration) time.Duration {
	if d > time.Second {
		return d.Round(10 * time.Millisecond)
	}
	return d.Round(time.Millisecond)
}

// oneLine is s for one line of the report, bounded to n runes: model and
// corpus text go through Sentinel's one sanitizer, so neither can lay out or
// drive the person's terminal.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if rs := []rune(s); len(rs) > n {
		s = string(rs[:n]) + "…"
	}
	return textsafe.Line(s)
}
