package runner

import (
	"os"
	"path/filepath"
	"testing"
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
