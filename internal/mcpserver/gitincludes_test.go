//go:build unix

package mcpserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// includedRepo is an rw path app holding a repository whose config
// includes app/team.gitconfig (present) and, through includeIf,
// app/conf/other.gitconfig (missing), and names app/tools/hk as its
// hooks directory (missing), app/tools/fsmon.sh as its fsmonitor and
// app/bin/conv as a diff driver's textconv (both missing).
func includedRepo(t *testing.T) (fixture, map[string]string) {
	t.Helper()
	f := newFixture(t)
	gitInit(t, f.rw)
	write(t, filepath.Join(f.rw, "team.gitconfig"), "[user]\n\tname = team\n")
	for _, kv := range [][2]string{
		{"include.path", "../team.gitconfig"},
		{"includeIf.gitdir:/.path", "../conf/other.gitconfig"},
		{"core.hooksPath", "tools/hk"},
		{"core.fsmonitor", "tools/fsmon.sh"},
		{"diff.enc.textconv", `"./bin/conv" --from=utf16`},
	} {
		if out, err := exec.Command("git", "-C", f.rw, "config", kv[0], kv[1]).CombinedOutput(); err != nil {
			t.Fatalf("git config %s: %v\n%s", kv[0], err, out)
		}
	}
	return f, map[string]string{
		"include":   filepath.Join(f.rw, "team.gitconfig"),
		"includeIf": filepath.Join(f.rw, "conf", "other.gitconfig"),
		"hook":      filepath.Join(f.rw, "tools", "hk", "pre-commit"),
		"fsmonitor": filepath.Join(f.rw, "tools", "fsmon.sh"),
		"textconv":  filepath.Join(f.rw, "bin", "conv"),
	}
}

// A command in any exec mode cannot write a file the repository's config
// includes, nor a hook in its core.hooksPath: git would run what it put
// there on the person's next command, outside the sandbox.
func TestExecCannotWriteGitConfigIncludes(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	for _, mode := range []string{"allowlist", "strict", "policy", "unrestricted"} {
		t.Run(mode, func(t *testing.T) {
			f, targets := includedRepo(t)
			cfg := mustConfig(t, `exec_mode = "`+mode+`"
allowed_commands = ["python3", "cp"]
[[paths]]
path = "`+f.rw+`"
access = "rw"
`)
			cs, _ := stdioSession(t, cfg, Options{Helper: bin})
			evil := filepath.Join(f.rw, "evil.txt")
			write(t, evil, "[core]\n\tfsmonitor = touch /tmp/pwned\n")
			for name, p := range targets {
				// python3 -c in the modes that run a listed program; the
				// policy asks about inline code, so there a plain cp.
				line := `python3 -c "import sys; open(sys.argv[1], 'a').write(open(sys.argv[2]).read())" ` + p + " " + evil
				if mode == "policy" {
					line = "cp " + evil + " " + p
				}
				got, _ := call(t, cs, "exec", map[string]any{"command": line})
				if !strings.Contains(got, "Read-only file system") {
					t.Errorf("%s (%s): the command was not held to read-only:\n%s", name, p, got)
				}
				if b, _ := os.ReadFile(p); strings.Contains(string(b), "fsmonitor") {
					t.Errorf("%s (%s) was written: %q", name, p, b)
				}
			}
		})
	}
}

// The file tools refuse the same files as read-only, present or missing.
func TestFileToolsRefuseGitConfigIncludes(t *testing.T) {
	t.Parallel()
	f, targets := includedRepo(t)
	cs, _ := session(t, mustConfig(t, f.config("")), Options{})
	for name, p := range targets {
		mustRefuse(t, cs, "edit", map[string]any{"path": p, "content": "[core]\n\tfsmonitor = touch /tmp/pwned\n"}, ClassReadOnlyPath)
		if name == "include" {
			mustRefuse(t, cs, "edit", map[string]any{"path": p, "old_string": "team", "new_string": "x"}, ClassReadOnlyPath)
			mustRefuse(t, cs, "delete", map[string]any{"path": p}, ClassReadOnlyPath)
			mustRefuse(t, cs, "move", map[string]any{"from": p, "to": p + ".old"}, ClassReadOnlyPath)
			mustRefuse(t, cs, "copy", map[string]any{"from": filepath.Join(f.rw, "notes.txt"), "to": p, "overwrite": true}, ClassReadOnlyPath)
		}
	}
	// Nor a directory holding one: a new one would take its place.
	mustRefuse(t, cs, "move", map[string]any{"from": filepath.Join(f.rw, "tools"), "to": filepath.Join(f.rw, "h2")}, ClassReadOnlyPath)
}

// An include.path given through the environment (GIT_CONFIG_COUNT,
// GIT_CONFIG_KEY_n, GIT_CONFIG_VALUE_n: git config shows its origin as
// "command line:") is followed like any include: a command cannot write
// the file it names in an rw path, which the person's git, run with the
// same environment, reads as its config.
func TestExecCannotWriteAnIncludeGivenInTheEnvironment(t *testing.T) {
	bin := helper(t)
	f := newFixture(t)
	gitInit(t, f.rw)
	inc := filepath.Join(f.rw, "env.gitconfig")
	write(t, inc, "[user]\n\tname = team\n")
	t.Setenv("GIT_CONFIG_COUNT", "1")
	t.Setenv("GIT_CONFIG_KEY_0", "include.path")
	t.Setenv("GIT_CONFIG_VALUE_0", inc)
	cfg := mustConfig(t, `exec_mode = "unrestricted"
[[paths]]
path = "`+f.rw+`"
access = "rw"
`)
	cs, _ := stdioSession(t, cfg, Options{Helper: bin})
	got, _ := call(t, cs, "exec", map[string]any{"command": `printf '[core]\n\tfsmonitor = touch /tmp/pwned\n' >> ` + inc})
	if !strings.Contains(got, "Read-only file system") {
		t.Errorf("the command was not held to read-only:\n%s", got)
	}
	if b, _ := os.ReadFile(inc); strings.Contains(string(b), "fsmonitor") {
		t.Errorf("%s was written: %q", inc, b)
	}
}
