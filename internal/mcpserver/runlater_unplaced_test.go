//go:build unix

package mcpserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// In allowlist mode with git, cp and tar allowed (a common config), a
// line that writes names it does not spell out plants a file that runs
// later as surely as `cp x .envrc`: a patch the client wrote with edit and
// applied with git apply, cp -t, a copied tree, an extracted archive.
// Each is refused as a write whose target is unknown; plain work goes on.
func TestExecRefusesWritesNamedByData(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", f.rw, "-c", "user.email=a@b", "-c", "user.name=a"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "init")
	write(t, filepath.Join(f.rw, "d", ".envrc"), "touch /tmp/pwned\n")
	cs, _ := session(t, mustConfig(t, `allowed_commands = ["git", "cp", "tar", "ls", "mv"]
[[paths]]
path = "`+f.rw+`"
access = "rw"
`), Options{Helper: bin})
	mustAllow(t, cs, "edit", map[string]any{"path": f.rw + "/p.patch",
		"content": "diff --git a/.envrc b/.envrc\nnew file mode 100644\n--- /dev/null\n+++ b/.envrc\n@@ -0,0 +1 @@\n+touch /tmp/pwned\n"})
	// A directory target the policy resolves (target/basename) is
	// refused naming the run-later file itself.
	for _, line := range []string{"cp -t . d/.envrc", "cp --target-directory=. d/.envrc"} {
		mustRefuse(t, cs, "exec", map[string]any{"command": line}, ClassReadOnlyPath)
	}
	for _, line := range []string{
		"git apply p.patch",
		"git -C . apply p.patch",
		"cp -r d/. .",
		"mv d sub",
		"tar cf t.tar -C d .envrc && tar xf t.tar",
		"git stash pop",
		"git checkout HEAD~0 -- .",
		"git bundle create .envrc HEAD",
	} {
		mustRefuse(t, cs, "exec", map[string]any{"command": line}, ClassNotAllowed)
	}
	refusedAsDifftoolOrEnvrc(t, cs, ClassNotAllowed)
	if _, err := os.Lstat(filepath.Join(f.rw, ".envrc")); err == nil {
		t.Fatal("a line planted .envrc")
	}
	mustAllow(t, cs, "exec", map[string]any{"command": "git status && cp notes.txt copy.txt && tar cf t.tar notes.txt && ls"})
	mustAllow(t, cs, "exec", map[string]any{"command": "git reset -q notes.txt"})
}

// In policy mode the built-in rules allow git apply and tar x as
// workspace work; in the person's own files they plant a .envrc as well,
// so such a line goes to the person (here no one: refused), while a new
// branch and plain work still run.
func TestPolicyModeAsksForWritesNamedByData(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	cmd := exec.Command("git", "-C", f.rw, "init", "-q")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	cs, _ := session(t, mustConfig(t, `exec_mode = "policy"
[[paths]]
path = "`+f.rw+`"
access = "rw"
`), Options{Helper: bin})
	mustAllow(t, cs, "edit", map[string]any{"path": f.rw + "/p.patch",
		"content": "diff --git a/.envrc b/.envrc\nnew file mode 100644\n--- /dev/null\n+++ b/.envrc\n@@ -0,0 +1 @@\n+touch /tmp/pwned\n"})
	refusedAsDifftoolOrEnvrc(t, cs, ClassNoOneToAsk)
	for line, why := range map[string]string{"git apply p.patch": "named by data", "tar xf t.tar": "named by data"} {
		got := mustRefuse(t, cs, "exec", map[string]any{"command": line}, ClassNoOneToAsk)
		if !strings.Contains(got, why) {
			t.Errorf("%s: the refusal does not say why: %s", line, got)
		}
	}
	if _, err := os.Lstat(filepath.Join(f.rw, ".envrc")); err == nil {
		t.Fatal("git apply planted .envrc")
	}
	mustAllow(t, cs, "exec", map[string]any{"command": "git status"})
	mustAllow(t, cs, "exec", map[string]any{"command": "git checkout -q -b feature"})
}

// refusedAsDifftoolOrEnvrc checks that git difftool -x running a command
// that writes .envrc is refused saying why: as the mode's refusal naming
// difftool, or (since the engine judges the command difftool is handed,
// policy/cmdrunopts.go) as a run-later write naming .envrc itself.
func refusedAsDifftoolOrEnvrc(t *testing.T, cs *mcp.ClientSession, class Class) {
	t.Helper()
	line := `git difftool -y -x 'sh -c "echo x > .envrc"' HEAD`
	got, isErr := call(t, cs, "exec", map[string]any{"command": line})
	byMode := strings.Contains(got, "["+string(class)+"]") && strings.Contains(got, "difftool")
	byFile := strings.Contains(got, "["+string(ClassReadOnlyPath)+"]") && strings.Contains(got, ".envrc")
	if !isErr || !byMode && !byFile {
		t.Errorf("%s: want a %s refusal naming difftool or a %s one naming .envrc, got (error=%v) %s", line, class, ClassReadOnlyPath, isErr, got)
	}
}
