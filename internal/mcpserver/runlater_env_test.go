//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// node_modules/.bin and a virtual environment's bin are not held (an
// install rewrites them) but a command that makes or changes a program
// there — a new entry, a rewritten script, the file a .bin link names —
// has it named in its answer and audit record as running code later; a
// command that changes nothing there names nothing.
func TestExecNamesTheProgramsOfAnEnvironmentItChanged(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	app := f.rw
	write(t, filepath.Join(app, "node_modules", "jest", "bin", "jest.js"), "// jest\n")
	if err := os.MkdirAll(filepath.Join(app, "node_modules", ".bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../jest/bin/jest.js", filepath.Join(app, "node_modules", ".bin", "jest")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(app, ".venv", "bin", "pip"), "#!/bin/sh\n")
	write(t, filepath.Join(app, ".venv", "bin", "python"), "#!/bin/sh\n")
	write(t, filepath.Join(app, "s.sh"), "echo 'require(\"child_process\")' >> node_modules/jest/bin/jest.js; echo x > node_modules/.bin/newtool; echo x >> .venv/bin/pip; echo done\n")
	cfg := mustConfig(t, `exec_mode = "unrestricted"
[[paths]]
path = "`+app+`"
access = "rw"
`)
	cs, srv := stdioSession(t, cfg, Options{Helper: bin})
	if got := mustAllow(t, cs, "exec", map[string]any{"command": "ls node_modules/.bin"}); strings.Contains(got, "installed environment") {
		t.Errorf("a command that changed nothing named the environment:\n%s", got)
	}
	got := mustAllow(t, cs, "exec", map[string]any{"command": "sh s.sh"})
	if !strings.Contains(got, "done") {
		t.Fatalf("the command did not run: %s", got)
	}
	want := []string{
		"changed " + filepath.Join(app, "node_modules", ".bin", "jest") + " (node_modules/.bin: npm scripts and npx run these programs)",
		"made " + filepath.Join(app, "node_modules", ".bin", "newtool"),
		"changed " + filepath.Join(app, ".venv", "bin", "pip") + " (a Python virtual environment's programs",
	}
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("the answer lacks %q:\n%s", w, got)
		}
	}
	if strings.Contains(got, filepath.Join(".venv", "bin", "python")) {
		t.Errorf("an unchanged program was named:\n%s", got)
	}
	if !slices.ContainsFunc(auditCalls(t, srv), func(c Call) bool {
		return c.Tool == "exec" && strings.Contains(strings.Join(c.GitSweep, "\n"), want[1])
	}) {
		t.Errorf("no audit record names the environment's programs")
	}
	if again := mustAllow(t, cs, "exec", map[string]any{"command": "true"}); strings.Contains(again, "installed environment") {
		t.Errorf("named again after a command that changed nothing:\n%s", again)
	}
}
