package userstate

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// A DirCache keeps one answer per directory, the newest first and at most
// Entries of them, and gives back only what it signed.
func TestDirCacheKeepsTheNewestSignedAnswers(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	c := DirCache{File: "test-cache.json", Purpose: "test cache", Entries: 3}
	for i := range 5 {
		c.Put(fmt.Sprintf("/d%d", i), fmt.Sprintf("k%d", i), fmt.Sprintf("v%d", i))
	}
	c.Put("/d3", "k3b", "v3b") // replaces /d3's answer, and is newest
	for i, want := range map[int]string{0: "", 1: "", 2: "v2", 3: "v3b", 4: "v4"} {
		var v string
		key, ok := c.Get(fmt.Sprintf("/d%d", i), &v)
		if (want != "") != ok || v != want {
			t.Errorf("/d%d: %q %q %v, want %q", i, key, v, ok, want)
		}
	}
	other := DirCache{File: c.File, Purpose: "another purpose", Entries: 3}
	var v string
	if _, ok := other.Get("/d4", &v); ok {
		t.Error("an answer signed for one purpose was given for another")
	}
	p, _ := Path(c.File)
	b, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.ReplaceAll(string(b), `"v4"`, `"planted"`)), 0o600)
	if _, ok := c.Get("/d4", &v); ok {
		t.Errorf("a changed answer was given: %q", v)
	}
	os.WriteFile(p, []byte("{"), 0o600)
	if _, ok := c.Get("/d2", &v); ok {
		t.Error("a garbled file gave an answer")
	}
	c.Put("/d9", "k9", "v9") // and it recovers
	if _, ok := c.Get("/d9", &v); !ok || v != "v9" {
		t.Errorf("after a garbled file: %q %v", v, ok)
	}
}
