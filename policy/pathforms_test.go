package policy

import "testing"

// TestTildeFormsAndHiddenGlobsAreJudgedWhereTheyLie: ~+ is the working
// directory and ~- the one before (bindprop.go), and a write through a
// glob that may match hidden files is still judged where its directory
// lies (command.go): each of these asked before.
func TestTildeFormsAndHiddenGlobsAreJudgedWhereTheyLie(t *testing.T) {
	ctx := testEnv(t)
	ctx.Sandboxed = true
	e := Default()
	for _, cmd := range []string{`rm -rf ~+/..`, `rm -rf ~+/../..`, `rm -rf ~-`, `rm -rf ~-/src`,
		`rm -rf ~/.ss?`, `rm -rf ~/.[a-z]*`, `rm -rf /[r]oot`, `rm -rf /[e]tc/*`} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: ctx}); v.Decision != Deny {
			t.Errorf("%q: %s by %s (%s), want deny", cmd, v.Decision, v.Rule, v.Reason)
		}
	}
	for _, cmd := range []string{`rm -rf ~+/build`, `rm -rf .[a-z]*`, `rm -rf build/.cache*`} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: ctx}); v.Decision == Deny {
			t.Errorf("%q: denied by %s (%s)", cmd, v.Rule, v.Reason)
		}
	}
}
