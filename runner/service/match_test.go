package service

import "testing"

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
		if got := Identify(c.exe, c.comm, c.argv); got != c.want {
			t.Errorf("Identify(%q, %q, %q) = %q, want %q", c.exe, c.comm, c.argv, got, c.want)
		}
	}
}

func TestAllowedApps(t *testing.T) {
	a := Agent{Program: "claude", Exe: "/usr/bin/dash", Argv: []string{"/bin/sh", "/opt/tools/claude"}}
	for _, apps := range [][]string{{"claude"}, {"/opt/tools/claude"}} {
		if !allowed(apps, a) {
			t.Errorf("allowed(%q) = false", apps)
		}
	}
	for _, apps := range [][]string{nil, {"codex"}, {"/usr/bin/claude"}, {"/opt/tools"}, {"sh"}} {
		if allowed(apps, a) {
			t.Errorf("allowed(%q) = true", apps)
		}
	}
}
