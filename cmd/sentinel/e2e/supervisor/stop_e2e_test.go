package supervisor

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// A signal during verification stops the run: no branch, exit 130, and one
// line saying where it stopped and where the work is. SIGTERM, SIGHUP and
// Ctrl-C twice alike; the check (a long sleep) is not waited for.
func TestSignalDuringVerificationStopsTheRun(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		sigs []syscall.Signal
	}{
		{"SIGTERM", []syscall.Signal{syscall.SIGTERM}},
		{"SIGHUP", []syscall.Signal{syscall.SIGHUP}},
		{"SIGINT twice", []syscall.Signal{syscall.SIGINT, syscall.SIGINT}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			e2etest.Git(t, dir, "init", "-q")
			e2etest.WriteFile(t, filepath.Join(dir, "a.txt"), "a\n")
			e2etest.Git(t, dir, "add", "-A")
			e2etest.Git(t, dir, "commit", "-qm", "init")
			started := filepath.Join(t.TempDir(), "started")
			cmd := exec.Command(e2etest.Bin, "run", "--plain", "--sandbox", "off", "--coder", "command",
				"--verify", "touch "+started+"; sleep 600", "edit a.txt", "--", "sh", "-c", "echo b > a.txt")
			out, errb := signalWhenStarted(t, cmd, dir, started, c.sigs)
			if code := cmd.ProcessState.ExitCode(); code != 130 {
				t.Fatalf("exit %d, want 130\n%s\n%s", code, out.String(), errb.String())
			}
			if !strings.Contains(errb.String(), "stopped during verification: work kept in recovery — sentinel review ") {
				t.Fatalf("no line says where the run stopped:\n%s", errb.String())
			}
			if b := e2etest.Git(t, dir, "branch", "--list", "sentinel/*"); b != "" {
				t.Fatalf("a branch landed: %s", b)
			}
		})
	}
}

// signalWhenStarted starts cmd in dir, sends sigs once the file started
// exists (the check runs), and waits for cmd to end.
func signalWhenStarted(t *testing.T, cmd *exec.Cmd, dir, started string, sigs []syscall.Signal) (*bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "NO_COLOR=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	hang := time.After(e2etest.HangBound) // a bound on a hung run, not a speed check
	for {
		if _, err := os.Stat(started); err == nil {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("the run ended before verification started: %v\n%s\n%s", err, out.String(), errb.String())
		case <-hang:
			cmd.Process.Kill()
			t.Fatal("verification never started")
		case <-time.After(50 * time.Millisecond):
		}
	}
	for _, s := range sigs {
		cmd.Process.Signal(s)
	}
	select {
	case <-done:
	case <-time.After(e2etest.HangBound): // the check sleeps 600 s
		cmd.Process.Kill()
		t.Fatalf("the run did not stop\n%s", out.String())
	}
	return &out, &errb
}

// A signal while review verifies a change stops it: nothing lands, exit 130.
func TestSignalDuringReviewVerificationLandsNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e2etest.Git(t, dir, "init", "-q")
	e2etest.WriteFile(t, filepath.Join(dir, "a.txt"), "a\n")
	e2etest.Git(t, dir, "add", "-A")
	e2etest.Git(t, dir, "commit", "-qm", "init")
	res := e2etest.Sentinel(t, dir, nil, "run", "--plain", "--sandbox", "off", "--coder", "command", "edit", "--", "sh", "-c", "echo b > a.txt; exit 1")
	if res.Code != 1 {
		t.Fatalf("run: %d %s", res.Code, res.Stderr)
	}
	started := filepath.Join(t.TempDir(), "started")
	cmd := exec.Command(e2etest.Bin, "review", "last", "--approve", "--sandbox", "off", "--verify", "touch "+started+"; sleep 600")
	_, errb := signalWhenStarted(t, cmd, dir, started, []syscall.Signal{syscall.SIGTERM})
	if code := cmd.ProcessState.ExitCode(); code != 130 || !strings.Contains(errb.String(), "nothing landed") {
		t.Fatalf("exit %d, want 130 and a line saying nothing landed:\n%s", code, errb.String())
	}
	if b := e2etest.Git(t, dir, "branch", "--list", "sentinel/*"); b != "" {
		t.Fatalf("a branch landed: %s", b)
	}
}
