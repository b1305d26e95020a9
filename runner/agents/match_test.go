package agents

import (
	"os"
	"path/filepath"
	"testing"
)

// The user service's scanner knows an agent's process by its executable,
// by the package its script lies in, through an interpreter, and as a
// shebang script named like it; never by a later argument.
func TestIdentifyAgents(t *testing.T) {
	cases := []struct {
		exe, comm string
		argv      []string
		want      string
	}{
		{"/usr/lib/node_modules/@anthropic-ai/claude-code/bin/claude.exe", "claude", []string{"claude"}, "claude"},
		{"/usr/bin/node", "node", []string{"node", "/home/u/.npm/bin/claude", "-p", "hi"}, "claude"},
		{"/usr/bin/node", "node", []string{"node", "--no-warnings", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js"}, "claude"},
		{"/usr/lib/node_modules/@openai/codex/vendor/x86_64-unknown-linux-musl/codex/codex", "codex", []string{"codex", "exec"}, "codex"},
		{"/usr/bin/node", "node", []string{"node", "/usr/bin/codex"}, "codex"},
		{"/usr/bin/node", "node", []string{"node", "/usr/lib/node_modules/@google/gemini-cli/bundle/gemini.js"}, "gemini"},
		{"/usr/lib/node_modules/opencode-ai/bin/opencode.exe", "opencode", []string{"opencode"}, "opencode"},
		{"/usr/bin/python3.12", "python3", []string{"/usr/bin/python3", "/home/u/.local/bin/aider", "--yes"}, "aider"},
		{"/usr/local/bin/goose", "goose", []string{"goose", "session"}, "goose"},
		{"/usr/bin/dash", "claude", []string{"/bin/sh", "/tmp/x/claude"}, "claude"}, // a shebang script named claude
		{"/usr/bin/node22", "node", []string{"node22", "/opt/x/gemini"}, "gemini"},
		// Not agents: the name only as a later argument, or something else.
		{"/usr/local/bin/sentinel", "sentinel", []string{"sentinel", "run", "--coder", "command", "--", "claude"}, ""},
		{"/usr/bin/node", "node", []string{"node", "-e", "require('claude')"}, ""},
		{"/usr/bin/vim", "vim", []string{"vim", "claude.md"}, ""},
		{"/usr/bin/bash", "bash", []string{"bash"}, ""},
		{"/usr/local/bin/claude-helper", "claude-helper", []string{"claude-helper"}, ""},
		{"/usr/bin/node", "node", []string{"node", "/srv/app/server.js"}, ""},
	}
	for _, c := range cases {
		got := ""
		if a := Identify(c.exe, c.comm, c.argv); a != nil {
			got = a.Name
		}
		if got != c.want {
			t.Errorf("Identify(%q, %q, %q) = %q, want %q", c.exe, c.comm, c.argv, got, c.want)
		}
	}
}

// Known agents are recognised by program name, by the npm package a link
// resolves into, and through a script host.
func TestOf(t *testing.T) {
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
		{[]string{"python3", "/home/u/.local/bin/aider", "--yes"}, "aider", 2},
		{[]string{"node", "node_modules/@anthropic-ai/claude-code/cli.js"}, "claude", 2},
	} {
		a, at := Of(tc.argv)
		agent := ""
		if a != nil {
			agent = a.Name
		}
		if agent != tc.agent || (agent != "" && at != tc.at) {
			t.Errorf("Of(%q) = %q, %d; want %q, %d", tc.argv, agent, at, tc.agent, tc.at)
		}
	}
}
