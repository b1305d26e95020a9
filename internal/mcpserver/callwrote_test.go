//go:build unix

package mcpserver

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// A command that writes in an rw path is told every path it changed,
// made or removed, not only "[exit 0]": git diff --output=Makefile (a
// "read-only" git command) emptied the Makefile and said nothing
// (ipatk13). They come as the answer's own block: the answer keeps its
// shape (the command's output, then "[exit N]" at its end). The person
// hears it too, on standard error and in the audit's system lane, since
// a hostile client need not show the answer.
func TestExecNamesEveryPathItChanged(t *testing.T) {
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
	answer, changed, isErr := callBlocks(t, cs, "exec", map[string]any{"command": "git diff --output=Makefile; echo hi > made.txt; rm gone.txt", "cwd": app})
	if isErr || !strings.HasSuffix(answer, "[exit 0]") {
		t.Errorf("the answer lost its shape (it ends with the exit status):\n%s", answer)
	}
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
	if !strings.Contains(changed, "this call changed 3 path(s) in "+app) {
		t.Errorf("the changed block does not count 3 paths in %s:\n%s", app, changed)
	}
	for _, w := range []string{"M Makefile", "A made.txt", "D gone.txt"} {
		if !strings.Contains(changed, w) {
			t.Errorf("the answer's changed block does not name %q:\n%s", w, changed)
		}
		if strings.Contains(answer, w) {
			t.Errorf("the answer's own block names %q (it is the command's):\n%s", w, answer)
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
	// A call that changes nothing has one block.
	if _, changed, _ := callBlocks(t, cs, "exec", map[string]any{"command": "cat Makefile", "cwd": app}); changed != "" {
		t.Errorf("a call that changed nothing is told it changed:\n%s", changed)
	}
	// A file tool too, with its backup still at the answer's end.
	answer, changed, _ = callBlocks(t, cs, "edit", map[string]any{"path": filepath.Join(app, "made.txt"), "content": "new\n"})
	if !strings.Contains(answer, "backup of the previous content: ") || strings.Contains(answer, "this call changed") || !strings.Contains(changed, "M made.txt") {
		t.Errorf("edit: want the backup in the answer and M made.txt apart, got:\n%s\n--\n%s", answer, changed)
	}
}

// The first maxWroteNamed paths of an rw path are named and the rest
// counted.
func TestChangedLinesAreBounded(t *testing.T) {
	var d []checkpoint.Change
	for i := range maxWroteNamed + 5 {
		d = append(d, checkpoint.Change{Path: fmt.Sprintf("f%02d", i), What: checkpoint.Added, After: &checkpoint.Entry{Kind: checkpoint.KindFile}})
	}
	p := &callPoint{}
	p.share.add("/p", d, nil)
	lines := p.wroteLines()
	if len(lines) != 1 {
		t.Fatalf("want one line, got %q", lines)
	}
	l := lines[0]
	if !strings.Contains(l, fmt.Sprintf("changed %d path(s) in /p", maxWroteNamed+5)) || !strings.Contains(l, fmt.Sprintf("A f%02d", maxWroteNamed-1)) ||
		strings.Contains(l, fmt.Sprintf("A f%02d", maxWroteNamed)) || !strings.Contains(l, "and 5 more") {
		t.Errorf("want the first %d named and 5 more counted, got %q", maxWroteNamed, l)
	}
}

// What Sentinel makes in an rw path to hold it read-only — a hooks
// directory and an included config file a repository's config names but
// that are missing (gitincludes.go) — is not the call's change: the
// call that made hk/ and inc/team.cfg appear was told only its own file
// (ipreport26's line named hk/team.cfg as the call's).
func TestSentinelsOwnPlaceholdersAreNoCallsChange(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	committedMakefile(t, f.rw)
	cs, _ := session(t, mustConfig(t, f.config(`exec_mode = "unrestricted"`)), Options{Helper: bin})
	mustAllow(t, cs, "exec", map[string]any{"command": "true", "cwd": f.rw})
	gitIn(t, f.rw, "config", "core.hooksPath", "hk")
	gitIn(t, f.rw, "config", "include.path", "../inc/team.cfg")
	answer, changed, isErr := callBlocks(t, cs, "exec", map[string]any{"command": "echo hi > made.txt", "cwd": f.rw})
	if isErr {
		t.Fatalf("refused: %s", answer)
	}
	for _, p := range []string{"hk", filepath.Join("inc", "team.cfg")} {
		if _, err := os.Stat(filepath.Join(f.rw, p)); err != nil {
			t.Fatalf("Sentinel did not make %s to hold it: %v", p, err)
		}
	}
	if !strings.Contains(changed, "changed 1 path(s)") || !strings.Contains(changed, "A made.txt") || strings.Contains(changed, "hk") || strings.Contains(changed, "inc") {
		t.Errorf("want only A made.txt named, not what Sentinel made:\n%s", changed)
	}
}
