//go:build unix

package mcpserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Files that run code later and exist are held read-only by the sandbox,
// for every program and every exec mode: a write no reading of the line
// can see (python3 -c, a shell expanding a variable) is refused by the
// mount, not the policy, and so is renaming away the directory that holds
// one to make it anew.
func TestExecCannotWriteRunLaterFilesThroughAProgram(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	for _, mode := range []string{`exec_mode = "unrestricted"`, `allowed_commands = ["python3"]`} {
		t.Run(strings.Fields(mode)[0], func(t *testing.T) {
			f := newFixture(t)
			app := f.rw
			gitInit(t, app)
			files := map[string]string{
				".envrc":                   "echo person\n",
				".venv/bin/activate":       "# person\n",
				"web/.vscode/tasks.json":   "{}\n",
				".github/workflows/ci.yml": "on: push\n",
			}
			for rel, body := range files {
				p := filepath.Join(app, rel)
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cfg := mustConfig(t, mode+`
[[paths]]
path = "`+app+`"
access = "rw"
`)
			cs, _ := stdioSession(t, cfg, Options{Helper: bin})
			// A program whose writes no reading of the line can see: a
			// script in the project (allowlist mode refuses python3 -c).
			py := `import os
for p in [".envrc", ".venv/bin/activate", "web/.vscode/tasks.json", ".github/workflows/ci.yml", ".git/hooks/pre-commit"]:
    try:
        open(p, "w").write("touch PWNED\n"); print("WROTE " + p)
    except OSError as e:
        print("refused " + p + ": " + e.strerror)
for d, f in [("web", "web/.vscode/tasks.json"), (".venv/bin", ".venv/bin/activate"), (".github", ".github/workflows/ci.yml")]:
    try:
        os.rename(d, d + "2"); os.makedirs(os.path.dirname(f), exist_ok=True); open(f, "w").write("touch PWNED\n"); print("REMADE " + f)
    except OSError as e:
        print("refused moving " + d + ": " + e.strerror)
`
			if err := os.WriteFile(filepath.Join(app, "tool.py"), []byte(py), 0o644); err != nil {
				t.Fatal(err)
			}
			got := mustAllow(t, cs, "exec", map[string]any{"command": "python3 tool.py"})
			if !strings.Contains(got, "refused .envrc: Read-only file system") {
				t.Errorf("the write was not refused by the mount:\n%s", got)
			}
			if strings.Contains(got, "WROTE") || strings.Contains(got, "REMADE") {
				t.Errorf("a program wrote a file that runs code later:\n%s", got)
			}
			for rel, body := range files {
				if b, err := os.ReadFile(filepath.Join(app, rel)); err != nil || string(b) != body {
					t.Errorf("%s changed (%v): %q\n%s", rel, err, b, got)
				}
			}
			if _, err := os.Stat(filepath.Join(app, ".git", "hooks", "pre-commit")); err == nil {
				t.Errorf("a hook was planted")
			}
		})
	}
}

// A file that runs code later which a command makes (only those that
// existed when the sandbox started are held) is named in that command's
// answer, once.
func TestExecNamesARunLaterFileItMade(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	app := f.rw
	cfg := mustConfig(t, `exec_mode = "unrestricted"
[[paths]]
path = "`+app+`"
access = "rw"
`)
	cs, _ := stdioSession(t, cfg, Options{Helper: bin})
	got := mustAllow(t, cs, "exec", map[string]any{"command": `sh -c 'echo "touch PWNED" > .envrc; mkdir -p web/.vscode && echo {} > web/.vscode/tasks.json; echo plain > notes.txt'`})
	for _, w := range []string{"the command made " + filepath.Join(app, ".envrc") + ", which runs code later (direnv runs it on cd)", "the command made " + filepath.Join(app, "web", ".vscode") + ", which runs code later"} {
		if !strings.Contains(got, w) {
			t.Errorf("not named %q:\n%s", w, got)
		}
	}
	if strings.Contains(got, "notes.txt") {
		t.Errorf("a plain file was named:\n%s", got)
	}
	if again := mustAllow(t, cs, "exec", map[string]any{"command": "true"}); strings.Contains(again, "the command made") {
		t.Errorf("named again after a command that made nothing:\n%s", again)
	}
}
