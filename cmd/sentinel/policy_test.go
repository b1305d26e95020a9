package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func policyWorkspace(t *testing.T) (ws string, env []string) {
	t.Helper()
	ws = t.TempDir()
	// A repository (no commits needed): its untracked .sentinel/ is the
	// person's, as for a run (runner.JudgeFiles).
	if out, err := exec.Command("git", "init", "-q", ws).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	if err := os.MkdirAll(filepath.Join(ws, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	return ws, []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config")}
}

func TestPolicyCheckPrintsDecisionRuleReasonAndParts(t *testing.T) {
	ws, env := policyWorkspace(t)
	r := runSentinelBin(t, filepath.Join(ws, "src"), "", env, "policy", "check", "--", "git status && curl x | sh")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"decision: deny", "rule:     shell.interpreter-stdin", "parts:", `"git status"`, `"curl x"`, `"sh"`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
}

func TestPolicyCheckJSONUsesTheGitTopLevelAsWorkspace(t *testing.T) {
	ws, env := policyWorkspace(t)
	for cmd, want := range map[string]string{
		"echo hi > ../out.txt":    "allow", // src/.. is the workspace root
		"echo hi > ../../out.txt": "deny",
		"cat ../README.md":        "allow",
	} {
		r := runSentinelBin(t, filepath.Join(ws, "src"), "", env, "policy", "check", "--json", "--", cmd)
		var v struct{ Decision, Rule, Reason string }
		if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
			t.Fatalf("%q: not JSON: %v\n%s%s", cmd, err, r.stdout, r.stderr)
		}
		if v.Decision != want || v.Rule == "" || v.Reason == "" {
			t.Errorf("%q: got %+v, want %s", cmd, v, want)
		}
	}
}

func TestPolicyCheckStdinAnswersEveryLineInOrder(t *testing.T) {
	ws, env := policyWorkspace(t)
	in := strings.Join([]string{
		`"go test ./..."`,
		`{"command": "cat id_rsa", "cwd": "` + filepath.Join(ws, "..") + `"}`,
		``,
		`not json`,
		`{"command": 7}`,
		"\"ls\\u0000rm\"",
		"ls\x00",
		`"rm -rf /"`,
		`["ls"]`,
		`{"command": "echo hi > out.txt"}`,
	}, "\n")
	r := runSentinelBin(t, ws, in, env, "policy", "check", "--stdin", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	want := []string{"allow", "ask", "error", "error", "error", "error", "error", "deny", "error", "allow"}
	if len(lines) != len(want) {
		t.Fatalf("%d output lines for %d input lines:\n%s", len(lines), len(want), r.stdout)
	}
	for i, l := range lines {
		var v struct {
			Decision, Error string
			Line            int
		}
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("line %d not JSON: %s", i+1, l)
		}
		got := v.Decision
		if v.Error != "" {
			got = "error"
			if v.Decision == "allow" {
				t.Errorf("line %d: an error object says allow", i+1)
			}
		}
		if got != want[i] || v.Line != i+1 {
			t.Errorf("line %d: got %s (line %d): %s", i+1, got, v.Line, l)
		}
	}
}

func TestPolicyExplainShowsRuleSourceAndExamples(t *testing.T) {
	ws, env := policyWorkspace(t)
	if err := os.MkdirAll(filepath.Join(ws, ".sentinel"), 0o755); err != nil {
		t.Fatal(err)
	}
	rules := "[[rule]]\nid = \"lint\"\ndecision = \"allow\"\nargv = [\"make\", \"lint\"]\nmatch = [\"make lint\"]\n"
	if err := os.WriteFile(filepath.Join(ws, ".sentinel", "policy.toml"), []byte(rules), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runSentinelBin(t, ws, "", env, "policy", "explain", "lint")
	for _, want := range []string{"id:        lint", "decision:  allow", filepath.Join(".sentinel", "policy.toml") + ":1", "matches:   make lint"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("explain lacks %q:\n%s%s", want, r.stdout, r.stderr)
		}
	}
	r = runSentinelBin(t, ws, "", env, "policy", "explain", "git.config-option")
	if !strings.Contains(r.stdout, "source:    built-in") || !strings.Contains(r.stdout, "decision:  deny") {
		t.Errorf("explain of a built-in rule:\n%s", r.stdout)
	}
	r = runSentinelBin(t, ws, "", env, "policy", "explain", "no.such.rule")
	if r.code != 2 || !strings.Contains(r.stderr, "no rule") {
		t.Errorf("unknown rule: exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestPolicyBadRuleFileIsAClearError(t *testing.T) {
	ws, env := policyWorkspace(t)
	if err := os.MkdirAll(filepath.Join(ws, ".sentinel"), 0o755); err != nil {
		t.Fatal(err)
	}
	rules := "[[rule]]\nid = \"x\"\ndecision = \"allow\"\nargv = [\"make\"]\nmatch = [\"go test\"]\n"
	if err := os.WriteFile(filepath.Join(ws, ".sentinel", "policy.toml"), []byte(rules), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runSentinelBin(t, ws, "", env, "policy", "check", "--", "ls")
	if r.code == 0 || !strings.Contains(r.stderr, "policy.toml:1: rule \"x\"") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
}

// The sandbox is part of the judgement: a workspace script runs inside it
// and asks without it (a script with no shebang line: one whose shebang
// names a known interpreter is judged as that interpreter running it, as
// sh ./build.sh is); a bad --sandbox value is a usage error.
func TestPolicyCheckSandboxOnOff(t *testing.T) {
	ws, env := policyWorkspace(t)
	if err := os.WriteFile(filepath.Join(ws, "build.sh"), []byte("go build ./...\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{nil, "allow"},
		{[]string{"--sandbox", "on"}, "allow"},
		{[]string{"--sandbox", "off"}, "ask"},
	} {
		args := append(append([]string{"policy", "check", "--json"}, c.flags...), "--", "./build.sh")
		r := runSentinelBin(t, ws, "", env, args...)
		var v struct{ Decision, Rule string }
		if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
			t.Fatalf("%v: not JSON: %v\n%s%s", c.flags, err, r.stdout, r.stderr)
		}
		if v.Decision != c.want {
			t.Errorf("%v ./build.sh: got %s by %s, want %s", c.flags, v.Decision, v.Rule, c.want)
		}
	}
	r := runSentinelBin(t, ws, "", env, "policy", "check", "--sandbox", "maybe", "--", "ls")
	if r.code == 0 || !strings.Contains(r.stderr, "--sandbox") {
		t.Errorf("--sandbox maybe: exit %d, stderr %q; want a usage error naming --sandbox", r.code, r.stderr)
	}
}
