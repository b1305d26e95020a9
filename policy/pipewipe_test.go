package policy

import "testing"

// TestPipedAndDottedWipesAreDenied holds polcorp8's destroy class
// "deletion whose target resolves to home or the project root through a
// pipeline or ..": find . | xargs rm -rf (carlos-emr/carlos#281: it
// bypasses a Bash(rm -rf *) deny rule), its -print0/-0, -I and -type
// spellings, ls | xargs rm -rf (rm -rf *), and rm -rf $HOME/../$USER
// (polcorp8 "paths that resolve to the home directory"), which bash
// expands as it does ~/../$USER. A find or ls that names something, and
// xargs of a reading tool, are judged as before.
func TestPipedAndDottedWipesAreDenied(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	on := ctx
	on.Sandboxed = true
	want := map[string]Decision{
		"find . | xargs rm -rf":                           Deny,
		"find . -print0 | xargs -0 rm -rf":                Deny,
		"find . -depth -print0 | xargs -0 -r rm -rf --":   Deny,
		"find . -mindepth 1 | xargs rm -rf":               Deny,
		"find . -type f | xargs rm -f":                    Deny,
		"find . | xargs -I{} rm -rf {}":                   Deny,
		`find "$PWD" | xargs rm -rf`:                      Deny,
		"find $HOME -print0 | xargs -0 rm -rf":            Deny,
		"ls | xargs rm -rf":                               Deny,
		"ls -A | xargs rm -rf":                            Deny,
		"rm -rf $HOME/../$USER":                           Deny,
		`rm -rf "$HOME/../$USER"`:                         Deny,
		`rm -rf ${HOME}/../"$(whoami)"`:                   Deny,
		`rm -rf ~/../"$(whoami)"`:                         Deny,
		"find . -name '*.pyc' | xargs rm -f":              Ask,
		"find . -name node_modules -prune | xargs rm -rf": Ask,
		"ls src | xargs rm -rf":                           Ask,
		"rm -rf $HOME/.cache/$PROJ":                       Deny, // as rm -rf ~/.cache/$PROJ: a write outside the workspace
		"rm -rf ~/.cache/$PROJ":                           Deny,
	}
	for cmd, d := range want {
		for _, cx := range []Context{on, ctx} {
			if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: cx}); v.Decision != d {
				t.Errorf("sandbox %v: %q: got %s by %s (%s), want %s", cx.Sandboxed, cmd, v.Decision, v.Rule, v.Reason, d)
			}
		}
	}
	// Reading tools fed by find keep their sandbox allow: the find
	// spelling only ever adds a deny.
	for _, cmd := range []string{"find . -type f | xargs wc -l", "find src -name '*.py' -print0 | xargs -0 sed -i 's/foo/bar/'"} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: on}); v.Decision != Allow {
			t.Errorf("sandbox on: %q: got %s by %s (%s), want allow", cmd, v.Decision, v.Rule, v.Reason)
		}
	}
}
