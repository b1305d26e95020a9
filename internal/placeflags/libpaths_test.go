package placeflags

import (
	"path/filepath"
	"testing"

	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// A file made in a folder of the place on the person's PERL5LIB, RUBYLIB
// or NODE_PATH (or under it: Perl's JSON/PP.pm) is flagged, as PYTHONPATH's
// are: it shadows the module the person's next command loads (31-ipatk15).
func TestLibraryPathShadowsAreFlagged(t *testing.T) {
	root := t.TempDir()
	r := Read(root, &checkpoint.Manifest{}, "", "")
	added := func(p string) checkpoint.Change {
		return checkpoint.Change{Path: p, What: checkpoint.Added, After: &checkpoint.Entry{Kind: checkpoint.KindFile, Mode: 0o644, Hash: "new"}}
	}
	changes := []checkpoint.Change{added("perl/JSON/PP.pm"), added("rb/json.rb"), added("node/lodash/index.js"), added("src/app.go")}
	env := map[string]string{"PERL5LIB": filepath.Join(root, "perl"), "RUBYLIB": "rb", "NODE_PATH": filepath.Join(root, "node") + ":/usr/lib/node"}
	got := map[string]bool{}
	for _, f := range r.LibPathShadows(changes, func(k string) string { return env[k] }) {
		got[f.Path] = true
	}
	for _, p := range []string{"perl/JSON/PP.pm", "rb/json.rb", "node/lodash/index.js"} {
		if !got[p] {
			t.Errorf("%s is not flagged (flags %v)", p, got)
		}
	}
	if got["src/app.go"] {
		t.Errorf("a file on no library path is flagged")
	}
}
