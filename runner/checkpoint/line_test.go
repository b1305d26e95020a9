package checkpoint

import (
	"strings"
	"testing"
)

// A report line names its path on that one line: the coder chooses the
// names, and a newline in one (build/x\nsentinel: exec done; no files
// changed) would print a line of its own choosing under Sentinel's name in
// the person's terminal and in the journal.
func TestAReportLineKeepsItsPathOnOneLine(t *testing.T) {
	t.Parallel()
	const name = "build/x\nsentinel: exec done; no files changed\r\x1b[2J"
	file := &Entry{Kind: KindFile, Mode: 0o644}
	lines := map[string]string{
		"added":   Change{Path: name, What: Added, After: file}.Line(),
		"deleted": Change{Path: name, What: Deleted, Before: file}.Line(),
		"mode":    Change{Path: name, What: ModeOnly, Before: file, After: &Entry{Kind: KindFile, Mode: 0o755}}.Line(),
		"restore": Step{Path: name, Now: file, Was: &Entry{Kind: KindFile, Mode: 0o644, Size: 1}}.Line(),
		"remove":  Step{Path: name, Now: file}.Line(),
	}
	for what, l := range lines {
		if strings.ContainsAny(l, "\n\r\x1b") {
			t.Errorf("%s: %q breaks its line", what, l)
		}
		if !strings.Contains(l, "build/x") {
			t.Errorf("%s: %q does not name the path", what, l)
		}
	}
}

// A file replaced by a fifo reads as English in the report.
func TestAReportLineNamesAFifoInWords(t *testing.T) {
	t.Parallel()
	l := Change{Path: "Makefile", What: Modified, Before: &Entry{Kind: KindFile}, After: &Entry{Kind: KindOther}}.Line()
	if want := "M Makefile (was a file, now a fifo, socket, device or unreadable entry)"; l != want {
		t.Errorf("%q; want %q", l, want)
	}
}
