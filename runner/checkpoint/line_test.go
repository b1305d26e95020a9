package checkpoint

import (
	"io/fs"
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

// A mode line spells the sticky, setgid and setuid bits as chmod does
// (ipatk13): `chmod +t build` read "mode 0755→0755 build", a change that
// looked like none, and `chmod 1777 src` lost its sticky bit in the line.
func TestAModeLineSpellsTheSpecialBits(t *testing.T) {
	t.Parallel()
	dir := func(m fs.FileMode) *Entry { return &Entry{Kind: KindDir, Mode: m} }
	for want, c := range map[string]Change{
		"mode 0755→1755 build": {Path: "build", What: ModeOnly, Before: dir(0o755), After: dir(0o755 | fs.ModeSticky)},
		"mode 0755→1777 src":   {Path: "src", What: ModeOnly, Before: dir(0o755), After: dir(0o777 | fs.ModeSticky)},
		"mode 0755→6755 tool":  {Path: "tool", What: ModeOnly, Before: &Entry{Kind: KindFile, Mode: 0o755}, After: &Entry{Kind: KindFile, Mode: 0o755 | fs.ModeSetuid | fs.ModeSetgid}},
	} {
		if got := c.Line(); got != want {
			t.Errorf("%q; want %q", got, want)
		}
	}
}
