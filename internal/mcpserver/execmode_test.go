//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExecStrictMode(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	cs, _ := stdioSession(t, mustConfig(t, f.config(`exec_mode = "strict"`)), Options{Helper: bin})

	if got := mustAllow(t, cs, "exec", map[string]any{"command": "ls -a"}); !strings.Contains(got, "notes.txt") {
		t.Fatalf("one plain command: %s", got)
	}
	mustAllow(t, cs, "exec", map[string]any{"command": `echo 'a; b && c | d > e'`}) // quoted, not grammar
	for _, line := range []string{
		"ls; echo x", "ls && echo x", "ls || echo x", "ls | cat", "ls |& cat",
		"(ls)", "{ ls; }", "echo $(ls)", "echo `ls`", "cat <(ls)", "echo x > made.txt",
		"echo x >> made.txt", "cat < notes.txt", "ls 2>&1", "ls &", "ls;", "! ls", "X=1 ls",
		"sh -c 'ls'", "bash -c ls", "if true; then ls; fi", "for x in a; do ls; done", "f() { ls; }",
		"ls\necho x",
	} {
		want := ClassNotSimple
		mustRefuse(t, cs, "exec", map[string]any{"command": line}, want)
	}
	if _, err := os.Stat(filepath.Join(f.rw, "made.txt")); err == nil {
		t.Fatal("a redirection ran in strict mode")
	}
	// One command still needs its entry.
	mustRefuse(t, cs, "exec", map[string]any{"command": "lsof -i"}, ClassNotAllowed)
	mustRefuse(t, cs, "exec", map[string]any{"command": "echo 'open"}, ClassUnparseable)
}

func TestExecUnrestrictedMode(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	cs, srv := stdioSession(t, mustConfig(t, f.config(`exec_mode = "unrestricted"`)), Options{Helper: bin})

	// Anything runs, compound lines and programs no entry names included.
	got := mustAllow(t, cs, "exec", map[string]any{"command": "uname -s | tr a-z A-Z; printf '%s\\n' done > made.txt && wc -l < made.txt"})
	if !strings.Contains(got, "LINUX") || !strings.Contains(got, "1") {
		t.Fatalf("unrestricted: %s", got)
	}
	// Still in the sandbox: writes land only in the rw paths.
	// (a script file, whose content the policy cannot read before it runs)
	write(t, filepath.Join(f.rw, "s.sh"), "echo x > "+f.outside+"/evil; touch "+f.ro+"/evil2; echo x > "+f.rw+"/inside\n")
	got = mustAllow(t, cs, "exec", map[string]any{"command": "sh s.sh; echo end"})
	if _, err := os.Stat(filepath.Join(f.rw, "inside")); err != nil {
		t.Fatalf("the script did not run: %s", got)
	}
	for _, p := range []string{filepath.Join(f.outside, "evil"), filepath.Join(f.ro, "evil2")} {
		if _, err := os.Stat(p); err == nil {
			t.Fatalf("unrestricted mode wrote outside the rw paths: %s (%s)", p, got)
		}
	}
	// Still the policy's deny, still text a reader can read.
	mustRefuse(t, cs, "exec", map[string]any{"command": "echo x > " + f.ro + "/x", "cwd": f.ro}, ClassPolicyDeny)
	mustRefuse(t, cs, "exec", map[string]any{"command": "echo 'open"}, ClassUnparseable)
	mustRefuse(t, cs, "exec", map[string]any{"command": "ls", "cwd": f.outside}, ClassPathNotAllowed)
	// Audited: every call, with the mode as its rule.
	n := 0
	for _, c := range auditCalls(t, srv) {
		if c.Tool == "exec" && c.Decision == DecisionAllow {
			if c.Rule != "exec_mode unrestricted (sandboxed)" {
				t.Fatalf("audit rule: %q", c.Rule)
			}
			n++
		}
	}
	if n != 2 {
		t.Fatalf("audited %d allowed exec calls, want 2", n)
	}
}

func TestExecModeConfig(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	p := filepath.Join(t.TempDir(), "mcp.toml")
	write(t, p, f.config(`exec_mode = "yolo"`))
	if _, err := LoadConfig(p); err == nil || !strings.Contains(err.Error(), `use "allowlist", "strict", "policy" or "unrestricted"`) {
		t.Fatalf("a bad exec_mode: %v", err)
	}
}
