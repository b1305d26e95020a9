package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/agents"
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
	// Every --coder name an agent's entry gives (runner/agents), not a
	// copy of them: a new agent's coder is completed and in --help.
	want := []string{"demo", "acp", "command"}
	for _, a := range agents.All() {
		want = append(want, a.Coders...)
	}
	got := run("__complete", "run", "--coder", "")
	help := run("run", "--help")
	for _, name := range want {
		if !strings.Contains(got, name+"\n") {
			t.Errorf("--coder completion lacks %s:\n%s", name, got)
		}
		if !strings.Contains(help, " "+name+",") && !strings.Contains(help, " "+name+" (") {
			t.Errorf("sentinel run --help's --coder does not name %s", name)
		}
	}
}
