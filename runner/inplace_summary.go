package runner

import (
	"fmt"
	"strings"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// The end-of-run report of an in-place run, in words: one place that
// composes it for the journal and for `sentinel exec`'s last lines, so
// that the first line always agrees with what is listed below it. A run
// that staged a trojaned file, moved a branch or planted a git dir changed
// the person's project as surely as one that edited a file: the headline
// says "no files changed" only when nothing at all is reported.

// Headline is the report's first line: every kind of change counted.
// where follows the file count ("" or " in place").
func (c *InPlaceChanged) Headline(where string) string {
	var parts []string
	if n := len(c.Files); n > 0 {
		parts = append(parts, fmt.Sprintf("%d file(s) changed%s", n, where))
	}
	if n := len(c.Staged); n > 0 {
		parts = append(parts, fmt.Sprintf("%d staged path(s) changed in your index", n))
	}
	if n := len(c.Refs); n > 0 {
		parts = append(parts, fmt.Sprintf("%d ref(s) changed", n))
	}
	if n := len(c.Quarantined); n > 0 {
		parts = append(parts, fmt.Sprintf("%d git dir(s), pointer(s), ref(s) or object(s) the coder made quarantined", n))
	}
	if n := len(c.Stuck); n > 0 {
		parts = append(parts, fmt.Sprintf("%d git dir(s) or pointer(s) the coder made still in your project", n))
	}
	if n := len(c.IndexCaches); n > 0 {
		parts = append(parts, fmt.Sprintf("%d cache(s) the coder's git wrote into your index", n))
	}
	switch {
	case len(parts) == 0:
		return "no files changed"
	case len(c.Files) == 0:
		return strings.Join(parts, ", ") + " (no file changed" + where + ")"
	}
	return strings.Join(parts, ", ")
}

// Report is the whole report: the headline, then Details. where is as
// for Headline.
func (c *InPlaceChanged) Report(where string) string {
	return c.Headline(where) + c.Details()
}

// Details is what follows the headline: the file stat and a section for
// each other kind of change, each on lines of its own.
func (c *InPlaceChanged) Details() string {
	var b strings.Builder
	if len(c.Files) > 0 && c.Stat != "" {
		b.WriteString(":\n" + c.Stat)
	}
	b.WriteString(stagedText(c.Staged))
	b.WriteString(refMovesText(c.Refs))
	b.WriteString(indexCachesText(c.IndexCaches))
	if len(c.Quarantined) > 0 {
		b.WriteString("\nquarantined (the coder made these git dirs, pointers, refs or objects; moved out of your project, not deleted):\n  " + linesOf(c.Quarantined, "\n  "))
	}
	if len(c.Stuck) > 0 {
		b.WriteString("\nstill in your project (the coder made these and they could not be moved out; run no git command in them until you have looked):\n  " + linesOf(c.Stuck, "\n  "))
	}
	return b.String()
}

// linesOf is items joined by sep, each shown as textsafe.Line shows it:
// the coder names the directories these paths go through, and a newline
// in a name must not make a line of its own under Sentinel's name.
func linesOf(items []string, sep string) string {
	shown := make([]string, len(items))
	for i, it := range items {
		shown[i] = textsafe.Line(it)
	}
	return strings.Join(shown, sep)
}

// FlagsText is the changed files that run code later, one a line after
// a heading (at most maxFlagNotices), or "" when there are none.
func (c *InPlaceChanged) FlagsText() string {
	if len(c.Flagged) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nchanged and runs code later (look at each before you use it):")
	for i, f := range c.Flagged {
		if i == maxFlagNotices {
			fmt.Fprintf(&b, "\n  … and %d more", len(c.Flagged)-i)
			break
		}
		b.WriteString("\n  " + textsafe.Line(f.Path+": "+f.Reason))
	}
	return b.String()
}

// GitDirText is what the coder changed in the git dir that no commit
// writes, and where the end could not look, after a heading, or "" when
// there is nothing.
func (c *InPlaceChanged) GitDirText() string {
	if len(c.GitDir) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nin your git dir (look before you run git there):")
	for _, w := range c.GitDir {
		for _, l := range strings.Split(w, "\n") {
			b.WriteString("\n  " + textsafe.Line(strings.TrimPrefix(l, "in place: ")))
		}
	}
	return b.String()
}

// stuckOf is g.Stuck, nothing for a place without a guard.
func stuckOf(g *gitGuard) []string {
	if g == nil {
		return nil
	}
	return g.Stuck()
}
