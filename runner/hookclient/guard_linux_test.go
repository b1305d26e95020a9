//go:build linux

package hookclient

import (
	"bufio"
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/sentinelhq/sentinel/approvals/wire"
)

// silentBroker listens on a new socket as a broker whose person has not
// answered: it reads one ask and says nothing. It returns the socket and
// a channel that yields the asking process's pid (from the socket's peer
// credentials) once the ask is read.
func silentBroker(t *testing.T) (string, <-chan int) {
	t.Helper()
	dir, err := os.MkdirTemp("", "hg") // short: a socket's path
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "b.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	asker := make(chan int, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		raw, err := c.(*net.UnixConn).SyscallConn()
		if err != nil {
			return
		}
		pid := 0
		raw.Control(func(fd uintptr) {
			if cred, err := unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED); err == nil {
				pid = int(cred.Pid)
			}
		})
		if _, err := bufio.NewReader(c).ReadString('\n'); err == nil {
			asker <- pid
		}
		_, _ = c.Read(make([]byte, 1)) // until the hook goes
	}()
	return sock, asker
}

// startHook starts `sentinel-helper hook codex` (TestHookChild) on a
// PreToolUse payload with socket as its broker.
func startHook(t *testing.T, sock string, env ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHookChild$")
	cmd.Env = append(append(os.Environ(), envHookChild+"=1", wire.EnvSocket+"="+sock), env...)
	cmd.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"call-1",` +
		`"tool_input":{"command":"echo denied > denied.txt"}}`)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out, &errb
}

// waitAsked is the pid that asked, once it has.
func waitAsked(t *testing.T, cmd *exec.Cmd, asker <-chan int, out, errb *bytes.Buffer) int {
	t.Helper()
	select {
	case pid := <-asker:
		return pid
	case <-time.After(2 * time.Minute): // a hang bound
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the hook never asked\nstdout: %s\nstderr: %s", out.String(), errb.String())
	}
	return 0
}

// wantDeny checks that the hook Codex started exited 2 with a deny
// holding why, not by a signal.
func wantDeny(t *testing.T, cmd *exec.Cmd, out, errb *bytes.Buffer, why string) {
	t.Helper()
	err := cmd.Wait()
	if st, _ := cmd.ProcessState.Sys().(syscall.WaitStatus); st.Signaled() {
		t.Fatalf("the hook Codex started died of %v with no answer (%v): Codex would run the call\nstdout: %s\nstderr: %s",
			st.Signal(), err, out.String(), errb.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(out.String()+errb.String(), why) {
		t.Errorf("exit %d; want 2 and a deny saying %q\nstdout: %s\nstderr: %s", code, why, out.String(), errb.String())
	}
}

// Codex runs a call whose hook was killed. The process holding the card
// (the one connected to the broker) is killed with SIGKILL while the card
// waits: the hook Codex started answers a deny saying so. Seen failing
// with the guard taken out (guarded empty): the process holding the card
// is the one Codex started, and it died of SIGKILL with no answer.
func TestAHookWhoseAskingProcessIsKilledDenies(t *testing.T) {
	t.Parallel()
	sock, asker := silentBroker(t)
	cmd, out, errb := startHook(t, sock)
	pid := waitAsked(t, cmd, asker, out, errb)
	if pid == 0 {
		t.Fatal("no peer credentials on the broker's socket")
	}
	if pid == cmd.Process.Pid {
		t.Log("the process Codex started holds the card itself: no guard")
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	wantDeny(t, cmd, out, errb, "killed by SIGKILL before Sentinel answered")
}

// A hook stopped (SIGSTOP) while its card waits never answers, and Codex
// runs the call when its own hook timeout passes. The guard denies
// before: past the inner hook's wait (here 1 s) and guardSlack. Seen
// failing with the guard taken out: the stopped hook had no answer when
// the test's bound passed.
func TestAStoppedHookDeniesBeforeTheAgentsTimeout(t *testing.T) {
	t.Parallel()
	sock, asker := silentBroker(t)
	cmd, out, errb := startHook(t, sock, wire.EnvHookTimeout+"=1s")
	pid := waitAsked(t, cmd, asker, out, errb)
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(pid, syscall.SIGKILL)
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
		case <-time.After(3 * time.Minute): // a hang bound, far past 1 s + guardSlack
			cmd.Process.Kill()
		}
	}()
	defer close(done)
	wantDeny(t, cmd, out, errb, "gave no answer within")
}
