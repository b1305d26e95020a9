package runner

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/geminicli"
)

// Known agents are recognised by program name, by the npm package a link
// resolves into, and through a script host.
func TestAgentOf(t *testing.T) {
	root := t.TempDir()
	cli := filepath.Join(root, "lib", "node_modules", "@anthropic-ai", "claude-code", "cli.js")
	if err := os.MkdirAll(filepath.Dir(cli), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cli, []byte("#!/usr/bin/env node\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "bin", "cc")
	os.MkdirAll(filepath.Dir(link), 0o755)
	if err := os.Symlink(cli, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		argv  []string
		agent string
		at    int
	}{
		{[]string{"/opt/x/claude", "-p", "hi"}, "claude", 1},
		{[]string{"codex"}, "codex", 1},
		{[]string{link, "--version"}, "claude", 1},
		{[]string{"node", "--no-warnings", cli, "-p", "hi"}, "claude", 3},
		{[]string{"/usr/bin/node", "script.js"}, "", 1},
		{[]string{"sh", "-c", "claude"}, "", 1},
		{[]string{"claude-helper"}, "", 1},
	} {
		agent, at := AgentOf(tc.argv)
		if agent != tc.agent || (agent != "" && at != tc.at) {
			t.Errorf("AgentOf(%q) = %q, %d; want %q, %d", tc.argv, agent, at, tc.agent, tc.at)
		}
	}
}

// gemini in place gets its hooks (runner/geminicli), Sentinel's approval
// mode before the person's arguments, however it was started.
func TestInPlaceGeminiHasHooks(t *testing.T) {
	bin, err := exec.LookPath("gemini")
	if err != nil {
		t.Skip("gemini is not installed (npm install -g @google/gemini-cli@" + geminicli.MinVersion + ")")
	}
	argvs := [][]string{{"gemini", "-p", "hi"}}
	if js, err := filepath.EvalSymlinks(bin); err == nil && strings.HasSuffix(js, ".js") {
		if _, err := exec.LookPath("node"); err == nil {
			argvs = append(argvs, []string{"node", js, "-p", "hi"})
		}
	}
	for _, argv := range argvs {
		a, err := newInPlaceAdapter(argv)
		if err != nil {
			t.Fatal(err)
		}
		g, ok := a.(*geminicli.Adapter)
		if !ok {
			t.Fatalf("%q: adapter %T, want gemini's with its hooks", argv, a)
		}
		got, _ := g.Argv("")
		if n := len(got); n < 4 || !slices.Equal(got[n-4:], []string{"--approval-mode", "yolo", "-p", "hi"}) || filepath.Base(got[n-5]) != filepath.Base(argv[len(argv)-3]) {
			t.Errorf("%q: argv %q", argv, got)
		}
		if line := inPlaceFirstLine("r1", a, "/p"); !strings.Contains(line, "gemini in place in /p, with its approval hooks") {
			t.Errorf("first line: %s", line)
		}
	}
}
