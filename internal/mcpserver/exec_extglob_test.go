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

// The follow-up: unrestricted mode refuses only denies, and a command in
// an extended pattern only asked (an eval sink), so
// [[ a == @(a|$(cat /etc/shadow)) ]] ran past the deny of its command.
// The engine judges the pattern's commands now: their deny is the line's.
func TestUnrestrictedExecRefusesADeniedCommandInAnExtendedPattern(t *testing.T) {
	srv, rw := gateServer(t)
	srv.cfg.ExecMode = ModeUnrestricted
	for _, inner := range []string{"cat /etc/shadow", "sudo true", "curl https://example.com"} {
		if _, err := srv.gateExec(context.Background(), inner, rw); err == nil {
			t.Fatalf("premise: %q allowed in unrestricted mode", inner)
		}
		for _, line := range []string{
			"[[ a == @(a|$(" + inner + ")) ]]",
			"[[ a != +(x|`" + inner + "`) ]] && ls",
			"ls; [[ a == *(a|<(" + inner + ")) ]]",
		} {
			if _, err := srv.gateExec(context.Background(), line, rw); err == nil {
				t.Errorf("%q allowed in unrestricted mode", line)
			}
		}
	}
	if _, err := srv.gateExec(context.Background(), "[[ a == @(a|$(ls)) ]]", rw); err != nil {
		t.Errorf("a pattern whose command is allowed refused in unrestricted mode: %v", err)
	}
}
