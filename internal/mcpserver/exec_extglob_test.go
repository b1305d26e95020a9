//go:build unix

package mcpserver

import (
	"context"
	"errors"
	"testing"
)

// ipatk17m row 1: with only ls allowed, [[ a == @(a|$(touch pwn)) ]]; ls
// ran touch. The shell parser keeps an extended pattern as text, so the
// allowlist saw no command in it; bash parses [[ … == PATTERN ]] as if
// extglob were on and runs the $( ). Refused in allowlist, strict and policy
// mode; a pattern without an expansion passes.
func TestExecRefusesACommandInAnExtendedPatternOfATest(t *testing.T) {
	srv, rw := gateServer(t)
	for _, mode := range []string{ModeAllowlist, ModePolicy} {
		srv.cfg.ExecMode = mode
		for _, line := range []string{
			"[[ a == @(a|$(touch pwn)) ]]; ls",
			"[[ a = !($(touch pwn)) ]]; ls",
			"[[ a != +(x|`touch pwn`) ]] && ls",
			"[[ a == *(a|$(touch pwn)) ]] || ls",
			"ls && [[ a == ?(${x@P}) ]]",
		} {
			_, err := srv.gateExec(context.Background(), line, rw)
			var r *Refusal
			if !errors.As(err, &r) {
				t.Errorf("%s mode: %q allowed (%v)", mode, line, err)
				continue
			}
			if mode == ModeAllowlist && r.Class != ClassNotAllowed {
				t.Errorf("%s mode: %q refused as %s (%s), not as an expansion bash runs", mode, line, r.Class, r.Reason)
			}
		}
	}
	srv.cfg.ExecMode = ModeAllowlist
	for _, line := range []string{`[[ notes.txt == @(*.go|*.txt) ]] && ls`, `[[ a == !(b) ]] && ls`} {
		if _, err := srv.gateExec(context.Background(), line, rw); err != nil {
			t.Errorf("%q refused: %v", line, err)
		}
	}
}
