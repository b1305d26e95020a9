//go:build unix

package supervisor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/hostbin"
)

// A supervisor CLI runs on the host with the person's keys: a claude or
// codex earlier on PATH inside the project a coder works in is never the
// one a backend starts, and the PATH it is given leaves the project out
// (its #!/usr/bin/env node).
func TestSupervisorCLIIsThePersonsOwn(t *testing.T) {
	tmp, _ := filepath.EvalSymlinks(t.TempDir())
	project, own := filepath.Join(tmp, "project", "node_modules", ".bin"), filepath.Join(tmp, "own")
	for _, d := range []string{project, own} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, n := range []string{"claude", "codex"} {
			if err := os.WriteFile(filepath.Join(d, n), []byte("#!/bin/sh\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Setenv("PATH", project+":"+own)
	defer hostbin.SetPersonPATHForTest(os.Getenv("PATH"))()
	hostbin.PinPerson([]string{filepath.Join(tmp, "project")}, hostbin.PersonPrograms...)
	c, err := newClaudeCLI(Config{})
	if err != nil {
		t.Fatal(err)
	}
	x, err := newCodexCLI(Config{})
	if err != nil {
		t.Fatal(err)
	}
	if c.path != filepath.Join(own, "claude") || x.path != filepath.Join(own, "codex") {
		t.Errorf("the backends run %s and %s, want the person's own in %s", c.path, x.path, own)
	}
	for _, kv := range withPersonPATH([]string{"PATH=" + project, "A=b"}) {
		if strings.HasPrefix(kv, "PATH=") && strings.Contains(kv, project) {
			t.Errorf("the CLI's PATH keeps the project: %s", kv)
		}
	}
}
