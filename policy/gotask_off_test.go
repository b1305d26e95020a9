package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// TestGoTaskWithTaskfileOff: with the sandbox off, `task NAME` asks in a
// workspace that says nothing (task may be Taskwarrior), and runs the
// project's own Taskfile tasks where a Taskfile.yml says go-task
// (gotask_off.go), as make and just are allowed off. Shapes from
// polcorp10/11 everyday/elixir and go (go-task Taskfiles in AGENTS.md
// files). Taskwarrior's changing commands and their prefixes, rc
// overrides, another Taskfile, install-like tasks and outside paths still
// ask.
func TestGoTaskWithTaskfileOff(t *testing.T) {
	bare := testEnv(t)
	withFile := testEnv(t)
	if err := os.WriteFile(filepath.Join(withFile.Workspace, "Taskfile.yml"), []byte("version: '3'\ntasks:\n  build:\n    cmds: [go build ./...]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := Default()
	everyday := []string{
		`task build`,
		`task test:single -- tests/growth_test.exs:12`,
		`task test:single -- tests/growth_test.exs:12 | tee build.log | tail -30`,
		`task --list`,
		`cd src && task build`,
	}
	for _, line := range everyday {
		if v := e.Check(Query{Kind: KindShell, Command: line, Context: withFile}); v.Decision != Allow {
			t.Errorf("Taskfile: %q: %s %s: %s", line, v.Decision, v.Rule, v.Reason)
		}
		if v := e.Check(Query{Kind: KindShell, Command: line, Context: bare}); v.Decision == Allow {
			t.Errorf("no Taskfile: %q allowed: %s", line, v.Reason)
		}
	}
	for _, line := range []string{
		`task delete`, `task de`, `task build sync`, `task 1 done`, `task add buy milk`, `task execute rm`,
		`task rc.data.location=/tmp build`, `task -t /tmp/x.yml build`, `task -d /tmp build`, `task install`,
		`task publish`, `task test:single -- /etc/passwd`, `task $X`, `echo 'version: 3' > Taskfile.yml && task build`,
	} {
		if v := e.Check(Query{Kind: KindShell, Command: line, Context: withFile}); v.Decision == Allow {
			t.Errorf("Taskfile: %q allowed: %s", line, v.Reason)
		}
	}
}
