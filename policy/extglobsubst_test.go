package policy

import (
	"strings"
	"testing"
)

// ipatk17m row 1's follow-up: a command in an extended pattern of [[ ]]
// only asked ("bash evaluates a value as code here"), so where only a deny
// counts (mcp's unrestricted mode) [[ a == @(a|$(cat /etc/shadow)) ]] ran
// past the deny of cat /etc/shadow. The command is judged now, and its
// deny is the line's, in and out of the sandbox, in every pattern form.
func TestEngineDeniesADeniedCommandInAnExtendedPattern(t *testing.T) {
	ws := t.TempDir()
	for _, sandbox := range []bool{true, false} {
		e := Default()
		ctx := Context{Workspace: ws, Cwd: ws, Sandboxed: sandbox}
		for _, inner := range []string{"sudo true", "rm -rf ~"} {
			if v := e.Check(Query{Kind: KindShell, Command: inner, Context: ctx}); v.Decision != Deny {
				t.Fatalf("sandbox %v: premise: %q is %s, not denied", sandbox, inner, v.Decision)
			}
			for _, line := range []string{
				"[[ a == @(a|$(" + inner + ")) ]]",
				"[[ a = !($(" + inner + ")) ]]; ls",
				"[[ a != +(x|`" + inner + "`) ]] && ls",
				"[[ a == *(a|<(" + inner + ")) ]] || ls",
				"[[ a == ?(b|\"$(" + inner + ")\") ]]",
				"[[ a == @(b|@(c|$(" + inner + "))) ]]",
				"[[ a == @(b|${x:-$(" + inner + ")}) ]]",
				"[[ a == @(b|$(echo x; " + inner + ")) ]]",
				"bash -c '[[ a == @(a|$(" + inner + ")) ]]'",
			} {
				v := e.Check(Query{Kind: KindShell, Command: line, Context: ctx})
				if v.Decision != Deny {
					t.Errorf("sandbox %v: %q: %s %s: %s", sandbox, line, v.Decision, v.Rule, v.Reason)
				}
			}
		}
		// A pattern whose command is not denied keeps the ask that names it.
		for _, line := range []string{"[[ a == @(a|$(ls)) ]]", "[[ a == @(a|`echo b`) ]]"} {
			v := e.Check(Query{Kind: KindShell, Command: line, Context: ctx})
			if v.Decision != Ask || !strings.Contains(v.Reason, evalSinkReason) {
				t.Errorf("sandbox %v: %q: %s %s: %s", sandbox, line, v.Decision, v.Rule, v.Reason)
			}
		}
	}
}
