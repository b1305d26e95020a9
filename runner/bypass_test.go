package runner

import (
	"testing"

	"github.com/sentinelhq/sentinel/runner/claude"
	"github.com/sentinelhq/sentinel/runner/codex"
)

// TestHookOnlyGateIsFoundOnTheAdapter: hookOnlyGate, which tells the
// broker to watch for calls that ran without an allow, is true exactly for
// the adapter whose hook is the only gate (Codex in place). The method is
// optional and found by a type assertion, so a change of its name or
// signature on either side would otherwise turn the watch off silently.
func TestHookOnlyGateIsFoundOnTheAdapter(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		a    Adapter
		want bool
	}{
		{"codex in place", codex.New(codex.Options{Mode: codex.Interactive}), true},
		{"codex app-server", codex.New(codex.Options{Mode: codex.AppServer}), false},
		{"claude", claude.New(claude.Options{}), false},
		{"command", &commandAdapter{argv: []string{"true"}}, false},
	} {
		if got := hookOnlyGate(c.a); got != c.want {
			t.Errorf("%s: hookOnlyGate = %v, want %v", c.name, got, c.want)
		}
	}
}
