//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"testing"
)

// A group is private only when every user can be listed: a getent whose
// full listing fails (NSS without enumeration, a timeout) or leaves out
// the owner itself showed no other user with that primary group, and the
// group counted as private (review: it failed open). Not parallel: it
// swaps getentPaths.
func TestAGroupWhoseUsersCannotBeListedIsNotPrivate(t *testing.T) {
	dir := t.TempDir()
	fake := func(listing string) {
		script := "#!/bin/sh\ncase \"$*\" in\n" +
			"'passwd 4321') echo 'ann:x:4321:4321::/home/ann:/bin/sh' ;;\n" +
			"'group 4321') echo 'ann:x:4321:' ;;\n" +
			"passwd) " + listing + " ;;\n" +
			"*) exit 2 ;;\nesac\n"
		p := filepath.Join(dir, "getent")
		if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	old := getentPaths
	getentPaths = []string{filepath.Join(dir, "getent")}
	t.Cleanup(func() { getentPaths = old })
	for _, c := range []struct {
		listing string
		private bool
	}{
		{"echo 'ann:x:4321:4321::/home/ann:/bin/sh'; echo 'bob:x:4322:4322::/home/bob:/bin/sh'", true},
		{"exit 2", false}, // the listing fails
		{"echo 'bob:x:4322:4322::/home/bob:/bin/sh'", false}, // the owner is not in it: not every user is
		{"echo 'ann:x:4321:4321::/home/ann:/bin/sh'; echo 'eve:x:4323:4321::/home/eve:/bin/sh'", false},
	} {
		fake(c.listing)
		if ok, why := privateGroup(4321, 4321); ok != c.private {
			t.Errorf("listing %q: private %v (%s), want %v", c.listing, ok, why, c.private)
		}
	}
}
