package e2etest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// HangBound bounds every wait in these helpers: long enough that a run on
// a machine at load 20 or more is never cut short, short enough that a
// hung run fails well inside go test's 30-minute timeout.
const HangBound = 5 * time.Minute

// Result is what a run of a binary did.
type Result struct {
	Code           int
	Stdout, Stderr string
}

// Run runs bin with args in dir, stdin from /dev/null (no person at a
// terminal), the test's environment plus an isolated user config
// directory, NO_COLOR and env.
func Run(t testing.TB, bin, dir string, env []string, args ...string) Result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "NO_COLOR=1"), env...)
	return wait(t, cmd)
}

// RunProgram runs bin with a clean environment (PATH only) plus env, and
// stdin.
func RunProgram(t testing.TB, bin, dir, stdin string, env []string, args ...string) Result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, env...)
	cmd.Stdin = strings.NewReader(stdin)
	return wait(t, cmd)
}

func wait(t testing.TB, cmd *exec.Cmd) Result {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return Result{code, out.String(), errb.String()}
}

// Git runs git in dir with a fixed identity and default branch, failing
// the test on an error; it returns the trimmed output.
func Git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// WriteFile writes body to path, making its directory.
func WriteFile(t *testing.T, path, body string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Script writes an executable shell script dir/name running body.
func Script(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// ScratchRepo is a committed repository with uncommitted work in it.
func ScratchRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	Git(t, dir, "init", "-q")
	WriteFile(t, filepath.Join(dir, "main.txt"), "one\n")
	WriteFile(t, filepath.Join(dir, "staged.txt"), "s\n")
	Git(t, dir, "add", "-A")
	Git(t, dir, "commit", "-qm", "init")
	WriteFile(t, filepath.Join(dir, "main.txt"), "one\ntwo (uncommitted)\n")
	WriteFile(t, filepath.Join(dir, "staged.txt"), "s\nstaged\n")
	Git(t, dir, "add", "staged.txt")
	WriteFile(t, filepath.Join(dir, "notes.md"), "untracked notes\n")
	return dir
}

// Checkout is everything about the person's checkout in dir (a
// ScratchRepo) that must not change.
func Checkout(t *testing.T, dir string) string {
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
	return strings.Join([]string{Git(t, dir, "symbolic-ref", "HEAD"), Git(t, dir, "rev-parse", "HEAD"),
		fmt.Sprintf("%x", idx), Git(t, dir, "status", "--porcelain"), files.String()}, "\n")
}

// KillNineWhen starts bin with args in dir, waits until its run's journal
// contains marker, then kills it with SIGKILL, as a crash would. It returns
// the journal's path.
func KillNineWhen(t *testing.T, bin, dir, marker string, args ...string) string {
	t.Helper()
	return KillNineWhenEnv(t, bin, dir, nil, marker, args...)
}

// KillNineWhenEnv is KillNineWhen with env added to the test's
// environment (a state dir of the test's own, say).
func KillNineWhenEnv(t *testing.T, bin, dir string, env []string, marker string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir()), env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	deadline := time.Now().Add(HangBound)
	journalPath, seen := "", false
	for !seen && time.Now().Before(deadline) {
		m, _ := filepath.Glob(filepath.Join(dir, ".sentinel", "runs", "*", "events.jsonl"))
		if len(m) == 1 {
			journalPath = m[0]
			b, _ := os.ReadFile(m[0])
			seen = strings.Contains(string(b), marker)
		}
		if seen {
			break
		}
		select {
		case <-exited: // it ended before the marker: nothing to kill
			deadline = time.Now()
		case <-time.After(100 * time.Millisecond):
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	<-exited
	switch {
	case journalPath == "":
		t.Fatal("the run never started")
	case !seen:
		t.Fatalf("the run's journal never showed %q before it ended or the hang bound: it was not killed where the test means", marker)
	}
	return journalPath
}

// RunMeta is `sentinel runs --json` in dir: each run's id, status and
// recovery directory.
func RunMeta(t *testing.T, dir string) []struct{ ID, Status, Recovery string } {
	t.Helper()
	return RunMetaEnv(t, dir, nil)
}

// RunMetaEnv is RunMeta with env added to the test's environment.
func RunMetaEnv(t *testing.T, dir string, env []string) []struct{ ID, Status, Recovery string } {
	t.Helper()
	res := Run(t, Bin, dir, env, "runs", "--json")
	var metas []struct{ ID, Status, Recovery string }
	if err := json.Unmarshal([]byte(res.Stdout), &metas); err != nil {
		t.Fatalf("runs --json: %v\n%s", err, res.Stdout)
	}
	return metas
}

// QuoteTOML is s as a TOML basic string.
func QuoteTOML(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// Contains reports whether list holds s.
func Contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// Squeeze turns every run of spaces into two, so table columns compare.
func Squeeze(s string) string {
	var b strings.Builder
	spaces := 0
	for _, r := range s {
		if r == ' ' {
			spaces++
			continue
		}
		if spaces > 0 {
			if spaces == 1 {
				b.WriteByte(' ')
			} else {
				b.WriteString("  ")
			}
			spaces = 0
		}
		b.WriteRune(r)
	}
	return b.String()
}

// CalcProject is a small real Go module in a fresh repository (a test, a
// main that prints "sum 5"), and the go binary that builds it.
func CalcProject(t *testing.T) (goBin, dir string) {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on PATH")
	}
	dir = ScratchRepo(t)
	WriteFile(t, filepath.Join(dir, "go.mod"), "module example.com/calc\n\ngo 1.21\n")
	WriteFile(t, filepath.Join(dir, "calc.go"), "package main\n\nimport \"fmt\"\n\nfunc Add(a, b int) int { return a + b }\n\nfunc main() { fmt.Println(\"sum\", Add(2, 3)) }\n")
	WriteFile(t, filepath.Join(dir, "calc_test.go"), "package main\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal(Add(2, 3))\n\t}\n}\n")
	return goBin, dir
}
