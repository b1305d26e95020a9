//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPlaybookWhenRequiresNotes(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	flag := filepath.Join(f.rw, "flag")
	cs, _ := stdioSession(t, mustConfig(t, f.config(`
[playbooks.rotate]
kind = "diagnostic"
description = "rotate when flagged"
when = "test -e `+flag+`"
requires = ["sh", "`+f.ro+`/app.log"]
notes = "run after a deploy"
commands = ["touch ran", "echo rotated"]

[playbooks.needs]
kind = "procedure"
description = "needs a tool"
requires = ["no-such-program-sentinel", "/no/such/file"]
steps = ["do it"]
`)), Options{Helper: bin})

	got := mustAllow(t, cs, "playbook", map[string]any{"name": "rotate"})
	if !strings.Contains(got, "skipped") || !strings.Contains(got, "exited 1") {
		t.Fatalf("a false condition did not skip: %s", got)
	}
	if _, err := os.Stat(filepath.Join(f.rw, "ran")); err == nil {
		t.Fatal("a skipped playbook ran its commands")
	}
	write(t, flag, "")
	got = mustAllow(t, cs, "playbook", map[string]any{"name": "rotate"})
	if !strings.Contains(got, "Notes: run after a deploy") || !strings.Contains(got, "rotated") {
		t.Fatalf("a true condition: %s", got)
	}
	if _, err := os.Stat(filepath.Join(f.rw, "ran")); err != nil {
		t.Fatal("the playbook's commands did not run")
	}
	got = mustRefuse(t, cs, "playbook", map[string]any{"name": "needs"}, ClassNotFound)
	if !strings.Contains(got, "no-such-program-sentinel, /no/such/file") {
		t.Fatalf("requires: %s", got)
	}
	got = mustAllow(t, cs, "capabilities", map[string]any{"playbook": "rotate"})
	for _, want := range []string{"when: test -e", "requires: sh, ", "notes: run after a deploy"} {
		if !strings.Contains(got, want) {
			t.Fatalf("capabilities playbook=rotate lacks %q: %s", want, got)
		}
	}
}

func TestPlaybookConfigErrors(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for extra, want := range map[string]string{
		"[playbooks.a]\nkind = \"procedure\"\nsteps = [\"x\"]\nwhen = \"a\\nb\"\n":           "when",
		"[playbooks.a]\nkind = \"procedure\"\nsteps = [\"x\"]\nrequires = [\"rel/path\"]\n":  "requires",
		"[playbooks.a]\nkind = \"procedure\"\nsteps = [\"x\"]\nrequires = [\"two words\"]\n": "requires",
	} {
		p := filepath.Join(t.TempDir(), "mcp.toml")
		write(t, p, f.config("")+extra)
		if _, err := LoadConfig(p); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error naming %s", extra, err, want)
		}
	}
}
