//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/poll"
)

// A command a call runs (exec, a playbook's, a service action) is in the
// journal before it starts: the call's own line comes only when it ends,
// so a server killed while its command ran left no line of a command that
// had already written to the person's files (31-ipatk16m: `echo start >>
// k.txt; sleep 3` and a SIGKILL mid-call: k.txt changed, the journal held
// only mcp-serve). Each command here waits, once started, for the test to
// let it go; the journal is read while it waits.
func TestACommandIsJournaledBeforeItRuns(t *testing.T) {
	bin := helper(t)
	f := newFixture(t)
	gate := t.TempDir() // the fake systemctl's; exec's and the playbook's wait in the rw path
	fake := filepath.Join(t.TempDir(), "systemctl")
	write(t, fake, "#!/bin/sh\ntouch "+gate+"/started\nwhile [ ! -e "+gate+"/go ]; do sleep 0.05; done\necho \"systemctl $*\"\n")
	if err := os.Chmod(fake, 0o755); err != nil {
		t.Fatal(err)
	}
	wait := "touch started; while [ ! -e go ]; do sleep 0.05; done; echo ran >> ran.txt"
	cfg := strings.Replace(f.config(`[services.web]
unit = "nginx.service"
actions = ["restart"]
[playbooks.fix]
kind = "diagnostic"
description = "fix it"
commands = ["`+wait+`"]
`), "allowed_commands", "exec_mode = \"unrestricted\"\nallowed_commands", 1)
	cs, srv := session(t, mustConfig(t, cfg), Options{Helper: bin, Systemctl: fake})
	cases := []struct {
		tool    string
		args    map[string]any
		dir     string
		command string
	}{
		{"exec", map[string]any{"command": wait}, f.rw, wait},
		{"playbook", map[string]any{"name": "fix"}, f.rw, wait},
		{"service", map[string]any{"unit": "web", "action": "restart"}, gate, "systemctl restart --no-pager -- nginx.service"},
	}
	for _, c := range cases {
		done := make(chan string, 1)
		go func() {
			text, _ := call(t, cs, c.tool, c.args)
			done <- text
		}()
		waitForFile(t, filepath.Join(c.dir, "started"), done)
		var acts []Act
		evs, err := journal.ReadFile(srv.AuditPath())
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range evs {
			if a, ok := AsAct(ev); ok && a.Tool == c.tool {
				acts = append(acts, a)
			}
		}
		if len(acts) != 1 || acts[0].Command != c.command {
			t.Errorf("%s: while its command runs the journal holds %+v, want one line naming %q before it ran", c.tool, acts, c.command)
		}
		write(t, filepath.Join(c.dir, "go"), "")
		if text := <-done; !strings.Contains(text, "[exit 0]") {
			t.Fatalf("%s: %s", c.tool, text)
		}
		for _, p := range []string{"started", "go"} {
			os.Remove(filepath.Join(c.dir, p))
		}
	}
}

// waitForFile waits until p exists; a call that ended first fails the test
// with its answer.
func waitForFile(t *testing.T, p string, done chan string) {
	t.Helper()
	var ended *string
	poll.Must(t, 5*time.Minute, p+" to appear", func() bool {
		if _, err := os.Stat(p); err == nil {
			return true
		}
		select {
		case text := <-done:
			ended = &text
			return true
		default:
			return false
		}
	})
	if ended != nil {
		t.Fatalf("the call ended before its command started: %s", *ended)
	}
}
