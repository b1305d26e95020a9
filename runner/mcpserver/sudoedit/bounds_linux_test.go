package sudoedit

import (
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// Deeply nested content never reaches the validators: a TOML inline-table
// bomb (memory quadratic in depth) and a shell $( bomb (a fatal stack
// overflow in the parser) are refused before Check runs, as root.
func TestHelperRefusesDeepNestingBeforeValidating(t *testing.T) {
	e := newHelperEnv(t)
	var checked atomic.Int32
	e.check = func(string, []byte) error { checked.Add(1); return nil }
	toml := filepath.Join(e.etc, "app.toml")
	sh := filepath.Join(e.etc, "app.sh")
	writeRoot(t, toml, "a = 1\n", 0o644)
	writeRoot(t, sh, "echo hi\n", 0o644)
	e.serve(t, toml, sh)
	for p, body := range map[string]string{
		toml: "a = " + strings.Repeat("{b=", 4000),
		sh:   strings.Repeat("$(", 100000),
	} {
		if _, errText := e.as(t, Request{Op: "write", Path: p, Content: []byte(body)}); !strings.Contains(errText, "nests brackets") {
			t.Errorf("%s: want a refusal naming the nesting, got %q", p, errText)
		}
	}
	if n := checked.Load(); n != 0 {
		t.Fatalf("the validator ran %d times on a nesting bomb", n)
	}
	// Ordinary nesting is validated and written.
	if _, errText := e.as(t, Request{Op: "write", Path: toml, Content: []byte("a = {b = {c = [1, [2]]}}\n")}); errText != "" || checked.Load() != 1 {
		t.Fatalf("ordinary TOML: %q (validator ran %d times)", errText, checked.Load())
	}
}
