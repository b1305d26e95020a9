package placeflags

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// A go.mod or go.work whose toolchain line now names another toolchain,
// or whose go line was raised, is flagged: the person's next go command
// there runs that toolchain (GOTOOLCHAIN=auto). Other edits, a go line
// lowered, and a file whose old content cannot be read are not.
func TestGoToolchainChangesAreFlagged(t *testing.T) {
	content := map[string]string{}
	entry := func(body string) *checkpoint.Entry {
		h := "h" + string(rune('a'+len(content)))
		content[h] = body
		return &checkpoint.Entry{Kind: checkpoint.KindFile, Hash: h}
	}
	read := func(_ string, e *checkpoint.Entry, _ bool) []byte {
		if b, ok := content[e.Hash]; ok {
			return []byte(b)
		}
		return nil
	}
	mod := "module example.com/m\n\ngo 1.22\n"
	changes := []checkpoint.Change{
		{Path: "go.mod", What: checkpoint.Modified, Before: entry(mod), After: entry(mod + "toolchain go1.99.1 // pinned\n")},
		{Path: "svc/go.mod", What: checkpoint.Modified, Before: entry(mod + "toolchain go1.22.1\n"), After: entry(mod + "toolchain go1.22.9\n")},
		{Path: "go.work", What: checkpoint.Modified, Before: entry("go 1.21\nuse ./m\n"), After: entry("go 1.23rc1\nuse ./m\n")},
		{Path: "new/go.mod", What: checkpoint.Added, After: entry("module x\ngo 1.22\ntoolchain go1.30.0\n")},
		{Path: "same/go.mod", What: checkpoint.Modified, Before: entry(mod), After: entry(mod + "require example.com/x v1.0.0\n")},
		{Path: "low/go.mod", What: checkpoint.Modified, Before: entry("go 1.22\n"), After: entry("go 1.21\n")},
		{Path: "gone/go.mod", What: checkpoint.Modified, Before: &checkpoint.Entry{Kind: checkpoint.KindFile, Hash: "lost"}, After: entry("go 1.30\ntoolchain go1.30.0\n")},
		{Path: "src/go.mod.txt", What: checkpoint.Added, After: entry("toolchain go1.30.0\n")},
		{Path: "old/go.mod", What: checkpoint.Deleted, Before: entry(mod)},
		// A new file's go line alone: a download only when newer than
		// this machine's Go (review).
		{Path: "newgo/go.mod", What: checkpoint.Added, After: entry("module y\ngo 1.99\n")},
		{Path: "oldgo/go.mod", What: checkpoint.Added, After: entry("module z\ngo 1.13\n")},
	}
	got := map[string]string{}
	for _, f := range GoToolchain(changes, read) {
		got[f.Path] = f.Reason
	}
	for p, want := range map[string]string{
		"go.mod":       "its toolchain line now names go1.99.1: your next go command here downloads and runs that toolchain",
		"svc/go.mod":   "names go1.22.9 (was go1.22.1)",
		"go.work":      "its go line now asks for go 1.23rc1 (was 1.21)",
		"new/go.mod":   "names go1.30.0",
		"newgo/go.mod": "its go line asks for go 1.99, newer than this machine's",
	} {
		if !strings.Contains(got[p], want) {
			t.Errorf("%s: flagged %q, want it to say %q", p, got[p], want)
		}
		delete(got, p)
	}
	if len(got) > 0 {
		t.Errorf("flagged besides: %q", got)
	}
}
