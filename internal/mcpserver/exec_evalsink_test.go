//go:build unix

package mcpserver

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/policy"
)

// A line whose command hides in a value bash evaluates (ipatk13m row 2:
// x='a[$(touch pwn)]'; ls $((x)) ran touch with only ls allowed) is
// refused in every mode that judges the commands a line spells, and in a
// shell's script; arithmetic on literal numbers and plain subscripts pass.
func TestExecRefusesValuesBashEvaluatesAsCode(t *testing.T) {
	srv, rw := gateServer(t)
	sinks := []string{
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
	}
	for _, mode := range []string{ModeAllowlist, ModePolicy} {
		srv.cfg.ExecMode = mode
		for _, line := range sinks {
			_, err := srv.gateExec(context.Background(), line, rw)
			var r *Refusal
			if !errors.As(err, &r) {
				t.Errorf("%s mode: %q allowed (%v)", mode, line, err)
				continue
			}
			if mode == ModeAllowlist && r.Class != ClassNotAllowed {
				t.Errorf("%s mode: %q refused as %s (%s), not as a value bash evaluates", mode, line, r.Class, r.Reason)
			}
		}
	}
	// bash is allowed whole in gateServer; here only its script is.
	c := mustConfig(t, newFixture(t).config(""))
	if _, err := c.gateAllowlist(policy.Read(`bash -c 'x="a[\$(touch pwn)]"; ls $((x))'`), rw); err == nil {
		t.Errorf("a shell's script: a value bash evaluates allowed")
	}
	srv.cfg.ExecMode = ModeStrict
	for _, line := range []string{`ls ${PWD@P}`, `ls $((PPID))`, `ls ${!PWD}`} {
		if _, err := srv.gateExec(context.Background(), line, rw); err == nil {
			t.Errorf("strict mode: %q allowed", line)
		}
	}
	srv.cfg.ExecMode = ModeAllowlist
	for _, line := range []string{
		`ls $((1+2))`, `a=(x y); ls ${a[0]} ${a[@]} ${!a[@]}`, `[[ 1 -eq 1 ]] && ls`,
		`x=notes.txt; ls ${x:0:5} ${x%.txt} ${x/n/m}`, `for i in 1 2; do ls; done`, `[[ -v HOME ]] && ls`,
	} {
		if rule, err := srv.gateExec(context.Background(), line, rw); err != nil || !strings.HasPrefix(rule, "allowed_commands") {
			t.Errorf("%q: %q, %v", line, rule, err)
		}
	}
}
