//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Shell text a client sends is measured for nesting before the shell
// parser sees it: `(` repeated a million times in an exec line or in an
// edited .sh file overflowed the parser's goroutine stack, a fatal error
// that killed the server and every session on it. Without the check this
// test dies with "goroutine stack exceeds 1000000000-byte limit".
func TestExecAndScriptEditRefuseNestingTooDeepToParse(t *testing.T) {
	f := newFixture(t)
	cs, _ := session(t, mustConfig(t, f.config("")), Options{})
	deep := strings.Repeat("(", 1_000_000)
	for _, line := range []string{deep, "ls " + strings.Repeat("$(", 500_000), strings.Repeat("if a; then ", 300) + "ls"} {
		text := mustRefuse(t, cs, "exec", map[string]any{"command": line}, ClassUnparseable)
		if !strings.Contains(text, "more than 256 deep") {
			t.Errorf("exec %.20q…: the refusal does not say why: %.300s", line, text)
		}
	}
	p := filepath.Join(f.rw, "deep.sh")
	text := mustRefuse(t, cs, "edit", map[string]any{"path": p, "content": deep}, ClassValidation)
	if !strings.Contains(text, "more than 256 deep") {
		t.Errorf("edit deep.sh: the refusal does not say why: %.300s", text)
	}
	if _, err := os.Lstat(p); !os.IsNotExist(err) {
		t.Errorf("deep.sh was written: %v", err)
	}
	// A script that nests as scripts do still passes.
	mustAllow(t, cs, "edit", map[string]any{"path": p, "content": "#!/bin/sh\nif [ -n \"$(ls)\" ]; then\n  for f in *; do case $f in (a) echo \"${f}\";; esac; done\nfi\n"})
}

// A line can be deep without one bracket: `ls && ` repeated makes a chain
// of BinaryCmds, `+1` repeated inside $(( )) a chain of BinaryAriths.
// Both parsed, then the policy's walk (syntax.Walk) overflowed the stack
// and the server died; the depth is now measured (without recursing)
// before anything walks the tree. Without the check this test dies with
// "fatal error: stack overflow".
func TestExecAndScriptEditRefuseASyntaxTreeTooDeepToWalk(t *testing.T) {
	if gateSweepChild.Ran(t) { // exec_gate_test.go
		return
	}
	f := newFixture(t)
	cs, _ := session(t, mustConfig(t, f.config("")), Options{})
	chain := strings.Repeat("ls && ", 300_000) + "ls"
	arith := "ls $((1" + strings.Repeat("+1", 600_000) + "))"
	for _, line := range []string{chain, arith} {
		text := mustRefuse(t, cs, "exec", map[string]any{"command": line}, ClassUnparseable)
		if !strings.Contains(text, "more than 4096 levels deep") {
			t.Errorf("exec %.20q…: the refusal does not say why: %.300s", line, text)
		}
	}
	p := filepath.Join(f.rw, "chain.sh")
	text := mustRefuse(t, cs, "edit", map[string]any{"path": p, "content": "ls $((1" + strings.Repeat("+1", 400_000) + "))"}, ClassValidation)
	if !strings.Contains(text, "more than 4096 levels deep") {
		t.Errorf("edit chain.sh: the refusal does not say why: %.300s", text)
	}
	// A long flat line is not deep: 2,000 commands after each other pass the gate.
	mustRefuse(t, cs, "exec", map[string]any{"command": strings.Repeat("ls; ", 2000) + "nosuchcmd"}, ClassNotAllowed)
}
