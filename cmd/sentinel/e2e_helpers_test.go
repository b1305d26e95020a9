package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The binary under test is sentinelBin, built once in TestMain (hook_test.go).

type result struct {
	code           int
	stdout, stderr string
}

// sentinel runs the built binary in dir with stdin from /dev/null (no
// person at a terminal) and an isolated user config directory.
func sentinel(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	return runBin(t, sentinelBin, dir, env, args...)
}

// runBin is sentinel with another build of the binary (see
// testbin.SentinelWithTestHooks).
func runBin(t *testing.T, bin, dir string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "NO_COLOR=1"), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code, out.String(), errb.String()}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// scratchRepo is a committed repository with uncommitted work in it.
func scratchRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	writeFile(t, filepath.Join(dir, "main.txt"), "one\n")
	writeFile(t, filepath.Join(dir, "staged.txt"), "s\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "init")
	writeFile(t, filepath.Join(dir, "main.txt"), "one\ntwo (uncommitted)\n")
	writeFile(t, filepath.Join(dir, "staged.txt"), "s\nstaged\n")
	git(t, dir, "add", "staged.txt")
	writeFile(t, filepath.Join(dir, "notes.md"), "untracked notes\n")
	return dir
}

// checkout is everything about the person's checkout that must not change.
func checkout(t *testing.T, dir string) string {
	t.Helper()
	idx, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	var files strings.Builder
	for _, f := range []string{"main.txt", "staged.txt", "notes.md"} {
		b, _ := os.ReadFile(filepath.Join(dir, f))
		files.WriteString(f + "=" + string(b))
	}
	return strings.Join([]string{git(t, dir, "symbolic-ref", "HEAD"), git(t, dir, "rev-parse", "HEAD"),
		fmt.Sprintf("%x", idx), git(t, dir, "status", "--porcelain"), files.String()}, "\n")
}

// killNineWhen starts sentinel with args in dir, waits until its run's
// journal contains marker, then kills it with SIGKILL, as a crash would. It
// returns the journal's path.
func killNineWhen(t *testing.T, dir, marker string, args ...string) string {
	t.Helper()
	cmd := exec.Command(sentinelBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second) // a bound on a hung run, not a speed check
	journalPath := ""
	for time.Now().Before(deadline) {
		m, _ := filepath.Glob(filepath.Join(dir, ".sentinel", "runs", "*", "events.jsonl"))
		if len(m) == 1 {
			journalPath = m[0]
			if b, _ := os.ReadFile(m[0]); strings.Contains(string(b), marker) {
				break
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if journalPath == "" {
		t.Fatal("the run never started")
	}
	return journalPath
}
