package policy

import "testing"

// TestParamPatternRemoval: bash's ${VAR%PATTERN}, ${VAR%%PATTERN},
// ${VAR#PATTERN} and ${VAR##PATTERN} remove a suffix or prefix that a
// glob matches; on $PWD and $HOME, whose values the line knows, the result
// is known too: "${PWD%/*}" is the project's parent folder. polcorp15's `rm -rf "${PWD%/*}"` (openai/codex#47282: the
// clone's parent) asked as a recursive deletion of an unknown path, where
// `rm -rf "$(dirname "$PWD")"` is denied.
func TestParamPatternRemoval(t *testing.T) {
	ctx := testEnv(t)
	on := ctx
	on.Sandboxed = true
	e := Default()
	for _, cmd := range []string{
		"rm -rf \"${PWD%/*}\"", "rm -rf \"${PWD%/*/*}\"", "rm -rf ${PWD%/*}", "rm -rf \"${HOME%/*}\"", "rm -rf \"${PWD%%/ws*}\"",
		"p=$PWD; rm -rf \"${p%/*}\"",
	} {
		for _, c := range []Context{on, ctx} {
			if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: c}); v.Decision != Deny {
				t.Errorf("sandbox %v: %q is %s by %s (%s), want deny", c.Sandboxed, cmd, v.Decision, v.Rule, v.Reason)
			}
		}
	}
	if v := e.Check(Query{Kind: KindShell, Command: "rm -rf \"${PWD%\"/*\"}\"", Context: on}); v.Decision == Allow {
		t.Errorf("a quoted pattern (a literal /*) is allowed by %s (%s)", v.Rule, v.Reason)
	}
}
