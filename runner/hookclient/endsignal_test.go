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

	"github.com/sentinelhq/sentinel/approvals/wire"
)

// envHookChild makes the test binary a hook (TestHookChild): what
// `sentinel-helper hook codex` runs.
const envHookChild = "SENTINEL_TEST_HOOKCLIENT_CHILD"

// TestHookChild is the hook process of TestAHookSentAnEndSignalDenies.
func TestHookChild(t *testing.T) {
	if os.Getenv(envHookChild) == "" {
		t.Skip("the hook process of TestAHookSentAnEndSignalDenies")
	}
	os.Exit(Main([]string{"codex"}, os.Stdin, os.Stdout, os.Stderr))
}

// A hook that is sent SIGHUP, SIGINT or SIGTERM while its card waits for
// the person answers a deny naming the signal and exits with a status:
// ended by the signal instead, it leaves Codex a hook "exited without a
// status code", and Codex runs the call. Seen failing without
// UntilEndSignal: the hook died of the signal.
func TestAHookSentAnEndSignalDenies(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			dir, err := os.MkdirTemp("", "hs") // short: a socket's path
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(dir) })
			sock := filepath.Join(dir, "b.sock")
			ln, err := net.Listen("unix", sock)
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			// A broker whose person has not answered: it reads the ask and
			// says nothing.
			asked := make(chan struct{})
			go func() {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				defer c.Close()
				if _, err := bufio.NewReader(c).ReadString('\n'); err == nil {
					close(asked)
				}
				_, _ = c.Read(make([]byte, 1)) // until the hook goes
			}()
			cmd := exec.Command(os.Args[0], "-test.run=^TestHookChild$")
			cmd.Env = append(os.Environ(), envHookChild+"=1", wire.EnvSocket+"="+sock)
			cmd.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"call-1",` +
				`"tool_input":{"command":"echo denied > denied.txt"}}`)
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			select {
			case <-asked:
			case <-time.After(2 * time.Minute): // a hang bound
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("the hook never asked\nstdout: %s\nstderr: %s", out.String(), errb.String())
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err = cmd.Wait()
			st, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if st.Signaled() {
				t.Fatalf("the hook died of %v with no answer (%v)\nstdout: %s\nstderr: %s", st.Signal(), err, out.String(), errb.String())
			}
			all := out.String() + errb.String()
			if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(all, "the hook was sent "+signalName(sig)+" before Sentinel answered") {
				t.Errorf("exit %d; want 2 and a deny naming %s\nstdout: %s\nstderr: %s", code, signalName(sig), out.String(), errb.String())
			}
		})
	}
}
