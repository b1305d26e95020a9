package main

import "strings"

// fitLines wraps each line of text to w cells (none when w ≤ 0), its
// continuation under the line's indent: plain `sentinel config` fits the
// terminal, its notes on an untrusted project file too (they ran to 116
// columns on a 60-column terminal, issue 37.12).
func fitLines(text string, w int) string {
	if w <= 0 {
		return text
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = hang(l, w)
	}
	return strings.Join(lines, "\n")
}
