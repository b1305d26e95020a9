package policy

import "testing"

// TestDynamicCommandGivenTheHomeIsDenied: a command whose name stays
// dynamic is denied when it is given the home directory, /, a directory
// above the workspace or a credential location (dynreach.go); given the
// workspace's own files it keeps asking.
func TestDynamicCommandGivenTheHomeIsDenied(t *testing.T) {
	ctx := testEnv(t)
	ctx.Sandboxed = true
	e := Default()
	for _, cmd := range []string{`$c -rf ~`, `$c -rf "$HOME"`, `"$@" /`, `$(get) -rf ..`, `${X} ~/.ssh/id_rsa`, `$c -rf ~/..`} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: ctx}); v.Decision != Deny {
			t.Errorf("%q: %s by %s (%s), want deny", cmd, v.Decision, v.Rule, v.Reason)
		}
	}
	for _, cmd := range []string{`$c -rf ./build`, `$c status`, `$PAGER README.md`, `"$@" src/`} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: ctx}); v.Decision != Ask {
			t.Errorf("%q: %s by %s (%s), want ask", cmd, v.Decision, v.Rule, v.Reason)
		}
	}
}
