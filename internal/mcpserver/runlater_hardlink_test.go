//go:build linux

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A hard link an earlier session made to a file that runs code later (a
// second name of .envrc, of a file in a held .vscode/) is held read-only
// too: a write through it, by any program, leaves the file as it was.
func TestExecCannotWriteARunLaterFileThroughAHardLink(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	app := f.rw
	write(t, filepath.Join(app, ".envrc"), "# the person's\n")
	write(t, filepath.Join(app, ".vscode", "tasks.json"), "{}\n")
	os.MkdirAll(filepath.Join(app, "notes", "deep"), 0o755)
	for from, to := range map[string]string{".envrc": "notes/e.txt", ".vscode/tasks.json": "notes/deep/t.json"} {
		if err := os.Link(filepath.Join(app, from), filepath.Join(app, to)); err != nil {
			t.Fatal(err)
		}
	}
	cfg := mustConfig(t, `exec_mode = "unrestricted"
[[paths]]
path = "`+app+`"
access = "rw"
`)
	cs, _ := stdioSession(t, cfg, Options{Helper: bin})
	got := mustAllow(t, cs, "exec", map[string]any{"command": `sh -c 'echo "touch PWNED" >> notes/e.txt; echo "{\"x\":1}" >> notes/deep/t.json; echo plain > notes/p.txt; echo done'`})
	if !strings.Contains(got, "done") {
		t.Fatalf("the command did not run: %s", got)
	}
	for rel, body := range map[string]string{".envrc": "# the person's\n", ".vscode/tasks.json": "{}\n"} {
		if b, _ := os.ReadFile(filepath.Join(app, rel)); string(b) != body {
			t.Errorf("%s was written through its other name: %q\n%s", rel, b, got)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(app, "notes", "p.txt")); string(b) != "plain\n" {
		t.Errorf("an ordinary write did not happen: %q", b)
	}
}

// The same for a git hook: its other name is held with it.
func TestExecCannotWriteAGitHookThroughAHardLink(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	app := f.rw
	gitInit(t, app)
	hook := filepath.Join(app, ".git", "hooks", "pre-commit")
	write(t, hook, "#!/bin/sh\n")
	if err := os.Link(hook, filepath.Join(app, "h.sh")); err != nil {
		t.Fatal(err)
	}
	cfg := mustConfig(t, `exec_mode = "unrestricted"
[[paths]]
path = "`+app+`"
access = "rw"
`)
	cs, _ := stdioSession(t, cfg, Options{Helper: bin})
	got := mustAllow(t, cs, "exec", map[string]any{"command": `sh -c 'echo "touch PWNED" >> h.sh; echo done'`})
	if !strings.Contains(got, "done") {
		t.Fatalf("the command did not run: %s", got)
	}
	if b, _ := os.ReadFile(hook); string(b) != "#!/bin/sh\n" {
		t.Errorf("the hook was written through its other name: %q\n%s", b, got)
	}
}
