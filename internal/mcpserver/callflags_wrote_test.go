//go:build unix

package mcpserver

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// A command that writes in an rw path is answered with every path it
// changed, made or removed, not only "[exit 0]": git diff --output=Makefile
// (a "read-only" git command) emptied the Makefile and said nothing
// (ipatk13). The person hears it too, on standard error and in the
// audit's system lane, since a hostile client need not show the answer.
func TestExecNamesEveryPathItWrote(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	app := f.rw
	committedMakefile(t, app)
	write(t, filepath.Join(app, "gone.txt"), "bye\n")
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	cfg := mustConfig(t, `exec_mode = "unrestricted"
audit = "`+audit+`"
[[paths]]
path = "`+app+`"
access = "rw"
`)
	var warn lockedBuffer
	cs, _ := stdioSession(t, cfg, Options{Helper: bin, Warn: &warn})
	got := mustAllow(t, cs, "exec", map[string]any{"command": "git diff --output=Makefile; echo hi > made.txt; rm gone.txt", "cwd": app})
	evs, err := journal.ReadFile(audit)
	if err != nil {
		t.Fatal(err)
	}
	var journaled []string
	for _, ev := range evs {
		if ev.Is(journal.System, KindWrote) {
			journaled = append(journaled, ev.Text)
		}
	}
	for _, w := range []string{"M Makefile", "A made.txt", "D gone.txt"} {
		if !strings.Contains(got, w) {
			t.Errorf("the answer does not name %q:\n%s", w, got)
		}
		if !strings.Contains(warn.String(), w) {
			t.Errorf("standard error does not name %q:\n%s", w, warn.String())
		}
		if !strings.Contains(strings.Join(journaled, "\n"), w) {
			t.Errorf("the audit's system lane does not name %q: %q", w, journaled)
		}
	}
	if strings.Contains(warn.String(), "DANGEROUS") {
		t.Errorf("an ordinary write is told as DANGEROUS:\n%s", warn.String())
	}
}

// The answer names the first maxWroteNamed paths of an rw path and counts
// the rest.
func TestWroteLinesAreBounded(t *testing.T) {
	var d []checkpoint.Change
	for i := range maxWroteNamed + 5 {
		d = append(d, checkpoint.Change{Path: fmt.Sprintf("f%02d", i), What: checkpoint.Added, After: &checkpoint.Entry{Kind: checkpoint.KindFile}})
	}
	p := &callPoint{diffs: []placeDiff{newPlaceDiff("/p", d, nil)}}
	lines := p.wroteLines()
	if len(lines) != 1 {
		t.Fatalf("want one line, got %q", lines)
	}
	l := lines[0]
	if !strings.Contains(l, fmt.Sprintf("wrote %d path(s) in /p", maxWroteNamed+5)) || !strings.Contains(l, fmt.Sprintf("A f%02d", maxWroteNamed-1)) ||
		strings.Contains(l, fmt.Sprintf("A f%02d", maxWroteNamed)) || !strings.Contains(l, "and 5 more") {
		t.Errorf("want the first %d named and 5 more counted, got %q", maxWroteNamed, l)
	}
}
