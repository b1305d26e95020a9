package runner

import (
	"runtime"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// The coder writes a libc.so.6 into the place (the person's shell has an
// empty LD_LIBRARY_PATH entry: their next `ls` there loads it) and a
// build's own library: the end report flags the first as running code
// later, saying the person's LD_LIBRARY_PATH holds the current directory,
// and not the second.
func TestInPlaceFlagsANewLibraryNamedAsASystemOne(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the system libraries looked for are Linux's")
	}
	t.Setenv("LD_LIBRARY_PATH", ":/opt/none")
	f := &checkpoint.Entry{Kind: checkpoint.KindFile, Mode: 0o644, Hash: "new"}
	changes := []checkpoint.Change{
		{Path: "libc.so.6", What: checkpoint.Added, After: f},
		{Path: "vendor/lib/libz.so.1", What: checkpoint.Modified, Before: &checkpoint.Entry{Kind: checkpoint.KindFile, Mode: 0o644, Hash: "old"}, After: f},
		{Path: "build/libsentinel-build-output.so", What: checkpoint.Added, After: f},
	}
	got := map[string]string{}
	for _, fl := range inPlaceFlags(changes, nil, nil) {
		got[fl.Path] = fl.Reason
	}
	for _, p := range []string{"libc.so.6", "vendor/lib/libz.so.1"} {
		if !strings.Contains(got[p], "runs code later when LD_LIBRARY_PATH holds the current directory") || !strings.Contains(got[p], "yours does now") {
			t.Errorf("%s: flagged %q", p, got[p])
		}
	}
	if r, ok := got["build/libsentinel-build-output.so"]; ok {
		t.Errorf("a build's own library is flagged: %q", r)
	}
}
