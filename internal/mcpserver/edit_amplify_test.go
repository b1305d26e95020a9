//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// An edit's replace_all multiplies: every occurrence of old_string grows
// by len(new_string). The result is measured before it is built, so a
// small file and a small request cannot make the server allocate
// gigabytes (1 MiB of "a" and a 4 KiB new_string asked for 4 GiB and the
// server died). Not parallel: it reads the process's allocation count.
func TestEditRefusesAReplaceThatWouldOutgrowTheLimitBeforeBuildingIt(t *testing.T) {
	f := newFixture(t)
	cfg := mustConfig(t, f.config("[limits]\nmax_read_bytes = 65536\n"))
	cs, _ := session(t, cfg, Options{})
	p := filepath.Join(f.rw, "aaa.txt")
	write(t, p, strings.Repeat("a", 65536))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	text := mustRefuse(t, cs, "edit", map[string]any{"path": p, "old_string": "a", "new_string": strings.Repeat("B", 4096), "replace_all": true}, ClassLimit)
	runtime.ReadMemStats(&after)
	if !strings.Contains(text, "would be 268435456 bytes") {
		t.Errorf("the refusal does not say how big the result would be: %s", text)
	}
	// Without the check the server builds the 256 MiB result (and its
	// []byte copy) before measuring it.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("refusing the edit allocated %d MiB", grew>>20)
	}
	if b, _ := os.ReadFile(p); len(b) != 65536 {
		t.Errorf("the file changed: %d bytes", len(b))
	}
	// A replace that stays within the limit still works.
	write(t, p, "x a y a\n")
	mustAllow(t, cs, "edit", map[string]any{"path": p, "old_string": "a", "new_string": "bb", "replace_all": true})
	if b, _ := os.ReadFile(p); string(b) != "x bb y bb\n" {
		t.Errorf("the edit wrote %q", b)
	}
}
