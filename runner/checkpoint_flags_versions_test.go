package runner

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// A version file the person's version manager reads on cd (.python-version,
// .nvmrc, …) changed in place is flagged in the end report (not blocked:
// pyenv local and uv python pin are the coder's to run): the interpreter
// the person runs next in the folder is the one it names (ipatk13m).
func TestInPlaceFlagsAVersionFileReadOnCd(t *testing.T) {
	t.Parallel()
	old := &checkpoint.Entry{Kind: checkpoint.KindFile, Mode: 0o644, Hash: "old"}
	now := &checkpoint.Entry{Kind: checkpoint.KindFile, Mode: 0o644, Hash: "new"}
	files := []string{".python-version", ".nvmrc", ".node-version", ".ruby-version", ".java-version", ".sdkmanrc", ".terraform-version", "web/.nvmrc"}
	var changes []checkpoint.Change
	for _, p := range files {
		changes = append(changes, checkpoint.Change{Path: p, What: checkpoint.Modified, Before: old, After: now})
	}
	changes = append(changes, checkpoint.Change{Path: "src/python-version.txt", What: checkpoint.Added, After: now})
	got := map[string]string{}
	for _, fl := range inPlaceFlags(changes, nil, nil) {
		got[fl.Path] = fl.Reason
	}
	for _, p := range files {
		if !strings.Contains(got[p], "your version manager reads it when you cd here") {
			t.Errorf("%s: flagged %q; want it named a file your version manager reads on cd", p, got[p])
		}
	}
	if r, ok := got["src/python-version.txt"]; ok {
		t.Errorf("src/python-version.txt: flagged %q", r)
	}
}
