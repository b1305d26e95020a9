package checkpoint

import (
	"strings"
	"testing"
)

// A saved manifest rewritten (as the person, on the host) with entries no
// record makes is refused as a whole when read, so undo acts on none of
// it: a path out of the place, one not clean, and one in a git dir (the
// rewrite had `sentinel undo` write .git/hooks/pre-commit). A record's own
// entries, a nested repository's .git among them, read as before.
func TestAManifestWithEntriesNoRecordMakesIsRefused(t *testing.T) {
	good := `{"root":"/p","entries":[{"p":".git","k":"git"},{"p":"Makefile","k":"file","m":420},{"p":"sub/.git","k":"git"},{"p":"sub/x.git","k":"file","m":420}],"top":{"p":".","k":"dir","m":493}}`
	if _, err := decodeManifest([]byte(good)); err != nil {
		t.Fatalf("a record's own manifest: %v", err)
	}
	for _, p := range []string{"../escape.txt", "sub/../../escape", "/etc/cron.d/x", "./Makefile", "sub//x", ".git/hooks/pre-commit", "sub/.git/config", ".git"} {
		kind := "file"
		b := strings.Replace(good, `{"p":"Makefile","k":"file","m":420}`, `{"p":"Makefile","k":"file","m":420},{"p":"`+p+`","k":"`+kind+`","m":493}`, 1)
		if _, err := decodeManifest([]byte(b)); err == nil {
			t.Errorf("a manifest with entry %q was read", p)
		}
	}
}
