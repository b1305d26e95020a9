//go:build unix

package mcpserver

import (
	"os"
	"testing"
)

// The file tools never write a file that runs code later on the host:
// the same list (policy/runlater.toml) that makes such writes person-only
// in the policy and flags them on the review screen.
func TestFileToolsRefuseRunLaterFiles(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs, _ := session(t, mustConfig(t, f.config("")), Options{})
	for _, p := range []string{".envrc", ".vscode/tasks.json", ".github/workflows/ci.yml", ".cargo/config.toml",
		".venv/bin/activate", ".claude/settings.json", ".npmrc"} {
		mustRefuse(t, cs, "edit", map[string]any{"path": f.rw + "/" + p, "content": "x\n"}, ClassReadOnlyPath)
		if _, err := os.Stat(f.rw + "/" + p); err == nil {
			t.Errorf("%s was written", p)
		}
	}
	mustRefuse(t, cs, "copy", map[string]any{"from": f.rw + "/notes.txt", "to": f.rw + "/.envrc"}, ClassReadOnlyPath)
	mustAllow(t, cs, "edit", map[string]any{"path": f.rw + "/main.go", "content": "package main\n"})
}

// With an rw path over a home directory, the person's own settings that run
// programs unasked are out of reach too: `edit ~/.gitconfig` with
// core.fsmonitor would run on the host at the person's next git command.
func TestFileToolsRefuseTheHomesRunLaterSettings(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs, _ := session(t, mustConfig(t, f.config("")), Options{})
	for _, p := range []string{".gitconfig", ".config/git/config", ".ssh/config", ".ssh/authorized_keys",
		".config/systemd/user/x.service", ".config/autostart/x.desktop", ".local/share/applications/x.desktop",
		".docker/config.json", ".config/fish/config.fish", ".emacs.d/init.el"} {
		mustRefuse(t, cs, "edit", map[string]any{"path": f.rw + "/" + p, "content": "[core]\n\tfsmonitor = sh -c id\n"}, ClassReadOnlyPath)
		if _, err := os.Stat(f.rw + "/" + p); err == nil {
			t.Errorf("%s was written", p)
		}
	}
}
