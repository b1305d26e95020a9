package claude

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/coder"
)

// The person's own plugins (installed, or enabled in settings.json) are
// not loaded in a run (their servers and hooks would start outside the
// agent's scope), and the run says so with a line naming them, instead of
// leaving them out silently; no plugins, no line.
func TestTheRunNamesThePersonsPluginsItDoesNotLoad(t *testing.T) {
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	home := t.TempDir()
	prepared := func() coder.Prepared {
		t.Helper()
		a := New(Options{Mode: Interactive, Sentinel: "/bin/true"})
		got, err := a.PrepareRun(coder.Setup{Home: home, Workspace: t.TempDir(), StateDir: filepath.Join(t.TempDir(), "c")})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got := prepared(); len(got.Notes) != 0 {
		t.Errorf("no plugins, yet notes %q", got.Notes)
	}
	put(t, filepath.Join(home, ".claude/plugins/installed_plugins.json"), `{"version": 2, "plugins": {"fmt@corp": [{"scope": "user"}]}}`)
	put(t, filepath.Join(home, ".claude/settings.json"), `{"enabledPlugins": {"lint@corp": true, "off@corp": false}}`)
	got := prepared()
	if len(got.Notes) != 1 || !strings.Contains(got.Notes[0], "fmt@corp, lint@corp") || strings.Contains(got.Notes[0], "off@corp") || !strings.Contains(got.Notes[0], "not loaded") {
		t.Errorf("notes %q, want one line naming fmt@corp, lint@corp as not loaded", got.Notes)
	}
}
