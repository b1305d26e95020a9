package policy

import (
	"strings"
	"testing"
)

// The engine asks for a line in which bash evaluates a value as code that
// no word spells (the forms of internal/mcpserver's
// TestExecRefusesValuesBashEvaluatesAsCode), in and out of the sandbox,
// naming the place; arithmetic on literals and plain array reads stay
// allowed.
func TestEngineAsksForValuesBashEvaluatesAsCode(t *testing.T) {
	ws := t.TempDir()
	for _, sandbox := range []bool{true, false} {
		e := Default()
		ctx := Context{Workspace: ws, Cwd: ws, Sandboxed: sandbox}
		for _, line := range []string{
			`x='a[$(touch pwn)]'; ls $((x))`,
			`x='a[$(touch pwn)]'; ls $(( $x + 1 ))`,
			`x='$(touch pwn)'; ls ${x@P}`,
			`ls ${PWD@P}`,
			`x='a[$(touch pwn)]'; [[ $x -eq 0 ]]; ls`,
			`x='a[$(touch pwn)]'; ls ${a[x]}`,
			`x='a[$(touch pwn)]'; a=(1 2); ls ${a[$x]}`,
			`declare -i y='a[$(touch pwn)]'; ls`,
			`x='a[$(touch pwn)]'; ls ${x:x}`,
			`x='a[$(touch pwn)]'; ls ${#x[x]}`,
			`x='a[$(touch pwn)]'; for ((i=x;i<1;i++)); do ls; done`,
			`x='a[$(touch pwn)]'; case 1 in $((x))) ls;; esac`,
			`x='a[$(touch pwn)]'; ls ${!x}`,
			`declare -n r='a[$(touch pwn)]'; ls $r`,
			`x='a[$(touch pwn)]'; b[x]=1; ls`,
			`x='a[$(touch pwn)]'; b=([x]=1); ls`,
			`x='a[$(touch pwn)]'; [[ -v $x ]]; ls`,
			`x='a[$(touch pwn)]'; (( x )); ls`,
			`x='a[$(rm -rf ~)]'; echo $((x))`,
			`bash -c 'x="a[\$(touch pwn)]"; b[x]=1'`,
		} {
			v := e.Check(Query{Kind: KindShell, Command: line, Context: ctx})
			if v.Decision < Ask || !strings.Contains(v.Reason, evalSinkReason) {
				t.Errorf("sandbox %v: %q: %s %s: %s", sandbox, line, v.Decision, v.Rule, v.Reason)
			}
		}
		// Plain arithmetic and array reads are no sink: the line keeps its
		// own verdict (ls $((1+2)) asks as any expanded argument does).
		for _, line := range []string{
			`ls $((1+2))`, `ls $((0x1f))`, `a=(x y); ls ${a[0]} ${a[@]} ${!a[@]}`, `ls ${x:1:2} ${x#a} ${#x}`,
		} {
			for _, p := range e.Check(Query{Kind: KindShell, Command: line, Context: ctx}).Parts {
				if isEvalSink(p) {
					t.Errorf("sandbox %v: %q: %s", sandbox, line, p.Reason)
				}
			}
		}
		for _, line := range []string{`a[0]=1`, `a=([1]=x)`, `[[ -v HOME ]] && ls`, `[[ 1 -eq 1 ]] && ls`, `declare -x FOO=1`} {
			if v := e.Check(Query{Kind: KindShell, Command: line, Context: ctx}); v.Decision != Allow {
				t.Errorf("sandbox %v: %q: %s %s: %s", sandbox, line, v.Decision, v.Rule, v.Reason)
			}
		}
	}
}
