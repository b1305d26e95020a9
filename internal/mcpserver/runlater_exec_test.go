//go:build unix

package mcpserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestExecRefusesRunLaterWrites: exec's writes to files that run code
// later get the file tools' answer (refused, the person's) whatever
// program writes them — a redirection of an allowed cat, git log's
// --output= — and the file is left as it was; an ordinary write still
// runs (issue 31).
func TestExecRefusesRunLaterWrites(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.email=a@b", "-c", "user.name=a"}, args...)...)
		cmd.Dir = f.rw
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", ".")
	git("add", "notes.txt")
	git("commit", "-qm", "i")
	later := map[string]string{
		".venv/bin/activate": "# venv\n",
		".envrc":             "# envrc\n",
		".gitattributes":     "* text=auto\n",
	}
	for rel, body := range later {
		write(t, filepath.Join(f.rw, rel), body)
	}
	write(t, filepath.Join(f.rw, "payload.txt"), "touch /tmp/pwned\n")
	cfg := `exec_mode = "allowlist"
allowed_commands = ["cat", "git log"]
network = "none"
[[paths]]
path = "` + f.rw + `"
access = "rw"
`
	cs, _ := session(t, mustConfig(t, cfg), Options{Helper: bin})

	// The file tool's answer, which exec must match.
	mustRefuse(t, cs, "edit", map[string]any{"path": filepath.Join(f.rw, ".venv/bin/activate"), "content": "x\n"}, ClassReadOnlyPath)
	for _, line := range []string{
		"cat payload.txt > .venv/bin/activate",
		"cat payload.txt > " + filepath.Join(f.rw, ".venv/bin/activate"),
		"cat payload.txt > .envrc",
		"git log -1 --format=tformat:touch --output=.envrc",
		"cat payload.txt >> .gitattributes",
		"cat payload.txt > notes.txt && cat payload.txt > .envrc",
		"cat payload.txt > .github/workflows/ci.yml",
	} {
		mustRefuse(t, cs, "exec", map[string]any{"command": line, "cwd": f.rw}, ClassReadOnlyPath)
	}
	// A target the line builds as it runs could be any of them.
	mustRefuse(t, cs, "exec", map[string]any{"command": "cat payload.txt > .env*", "cwd": f.rw}, ClassNotAllowed)
	// A default the line spells is read as the file it names (.envrc, a
	// run-later file) since this session's engine writes such expansions
	// out; refused either way, as a run-later write or as unknowable.
	line := "cat payload.txt > ${X:-.envrc}"
	if text, isErr := call(t, cs, "exec", map[string]any{"command": line, "cwd": f.rw}); !isErr ||
		!strings.Contains(text, "["+string(ClassReadOnlyPath)+"]") && !strings.Contains(text, "["+string(ClassNotAllowed)+"]") {
		t.Fatalf("exec %q: want a refusal, got (error=%v) %s", line, isErr, text)
	}
	for rel, body := range later {
		if b, _ := os.ReadFile(filepath.Join(f.rw, rel)); string(b) != body {
			t.Errorf("%s changed: %q", rel, b)
		}
	}
	if _, err := os.Stat(filepath.Join(f.rw, ".github")); err == nil {
		t.Error(".github was made")
	}
	// An ordinary write still runs.
	mustAllow(t, cs, "exec", map[string]any{"command": "cat payload.txt > notes.txt", "cwd": f.rw})
	if b, _ := os.ReadFile(filepath.Join(f.rw, "notes.txt")); string(b) != "touch /tmp/pwned\n" {
		t.Fatalf("an ordinary redirect did not write: %q", b)
	}
}
