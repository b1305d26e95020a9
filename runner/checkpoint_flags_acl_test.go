package runner

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// A default ACL the coder set on the place or a directory of it makes
// every file the person's tools make there later take its permissions
// (world-writable, whatever the umask): the end report flags it as
// DANGEROUS with the command that takes it away, for a directory the run
// made as for one it changed (h/ipatk12).
func TestInPlaceFlagsANewDefaultACL(t *testing.T) {
	t.Parallel()
	plain := &checkpoint.Entry{Kind: checkpoint.KindDir, Mode: 0o755}
	acl := &checkpoint.Entry{Kind: checkpoint.KindDir, Mode: 0o755, DefACL: "0200000001000700ffffffff"}
	changes := []checkpoint.Change{
		{Path: ".", What: checkpoint.ModeOnly, Before: plain, After: acl},
		{Path: "build/new", What: checkpoint.Added, After: acl},
		{Path: "src", What: checkpoint.ModeOnly, Before: acl, After: plain},
	}
	got := map[string]string{}
	for _, fl := range inPlaceFlags(changes, nil, nil) {
		got[fl.Path] = fl.Reason
	}
	for _, p := range []string{".", "build/new"} {
		if !strings.HasPrefix(got[p], dangerousPrefix) || !strings.Contains(got[p], "setfacl -k") {
			t.Errorf("%s: flagged %q; want DANGEROUS naming setfacl -k", p, got[p])
		}
	}
	if r, ok := got["src"]; ok {
		t.Errorf("a default ACL taken away is flagged: %q", r)
	}
}
