//go:build unix

package claude

import (
	"os"
	"path/filepath"
	"testing"
)

// The managed policy names the run's shell as SHELL and CLAUDE_CODE_SHELL
// (its env outranks a repository's .claude/settings.json env, which Claude
// Code starts its shell with before any hook): the person's SHELL when it
// is a system shell kind at an absolute path, else /bin/bash; a host
// policy's env does not displace it. Not parallel: it sets SHELL.
func TestThePolicyNamesTheRunsShell(t *testing.T) {
	fish := filepath.Join(t.TempDir(), "fish")
	if err := os.WriteFile(fish, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	host := map[string]any{"env": map[string]any{"SHELL": "/srv/evil/bash", "CLAUDE_CODE_SHELL": "/srv/evil/bash"}}
	for _, c := range []struct {
		shell, want string
		host        map[string]any
	}{
		{"/bin/sh", "/bin/sh", nil},
		{"/bin/bash", "/bin/bash", host},
		{"", "/bin/bash", nil},
		{"bash", "/bin/bash", nil},
		{fish, "/bin/bash", nil},
		{"/nonexistent/bash", "/bin/bash", nil},
	} {
		t.Setenv("SHELL", c.shell)
		m, err := New(Options{Mode: Interactive, Sentinel: "/bin/true"}).ManagedSettings(c.host, nil)
		if err != nil {
			t.Fatal(err)
		}
		env, _ := m["env"].(map[string]any)
		if env["SHELL"] != c.want || env["CLAUDE_CODE_SHELL"] != c.want {
			t.Errorf("SHELL=%q host %v: policy env SHELL=%v CLAUDE_CODE_SHELL=%v, want both %q", c.shell, c.host, env["SHELL"], env["CLAUDE_CODE_SHELL"], c.want)
		}
	}
}
