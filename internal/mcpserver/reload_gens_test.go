package mcpserver

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRetiredGenerationStopsAfterItsLastCall: a reload does not stop the
// sandbox under a call still running on the old config; that call's end
// does. An idle old generation stops at once.
func TestRetiredGenerationStopsAfterItsLastCall(t *testing.T) {
	t.Parallel()
	gen := func() (*Server, string) {
		d := filepath.Join(t.TempDir(), "ws")
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		return &Server{run: &runner{tmp: d}}, d // closing the runner removes its workspace
	}
	alive := func(d string) bool { _, err := os.Stat(d); return err == nil }
	var g generations
	first, d1 := gen()
	g.start(first)
	s, done := g.enter()
	if s != first {
		t.Fatal("a call did not run on the current generation")
	}
	second, d2 := gen()
	g.swap(second)
	if !alive(d1) {
		t.Fatal("the reload stopped the sandbox under a running call")
	}
	if g.current() != second {
		t.Fatal("the reload did not make the new generation current")
	}
	done()
	if alive(d1) {
		t.Fatal("the old generation's sandbox outlived its last call")
	}
	third, _ := gen()
	g.swap(third) // nothing runs on second
	if alive(d2) {
		t.Fatal("an idle old generation's sandbox was not stopped")
	}
}
