package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestCompletionIsListedAndCompletesCoders: `completion` shows in the help,
// and the shell's completion request for --coder gets the coders' names.
func TestCompletionIsListedAndCompletesCoders(t *testing.T) {
	run := func(args ...string) string {
		root := newRoot(args)
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&out)
		root.SetArgs(args)
		if err := root.Execute(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out.String())
		}
		return out.String()
	}
	if help := run("--help"); !strings.Contains(help, "completion") {
		t.Fatalf("sentinel --help does not list completion:\n%s", help)
	}
	got := run("__complete", "run", "--coder", "")
	for _, want := range []string{"claude", "codex", "demo", "claude-headless"} {
		if !strings.Contains(got, want+"\n") {
			t.Fatalf("--coder completion lacks %s:\n%s", want, got)
		}
	}
}
