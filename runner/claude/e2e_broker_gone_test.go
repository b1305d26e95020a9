package claude

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/fakemodel"
)

// TestBrokerGoneFailsClosed: the broker goes away in the middle of a run of
// the real claude -p (the run crashed, or was stopped). The next tool call's
// hook cannot get a decision and must deny it (exit 2) — Claude Code would
// run the call on any other failure — and the command must not run.
func TestBrokerGoneFailsClosed(t *testing.T) {
	requireClaude(t)
	for _, tc := range []struct {
		name  string
		stale bool // a killed broker leaves its socket file behind
		want  string
	}{
		{"broker closed", false, "no such file or directory"},
		{"broker killed, socket left", true, "connection refused"},
	} {
		t.Run(tc.name, func(t *testing.T) { brokerGone(t, tc.stale, tc.want) })
	}
}

func brokerGone(t *testing.T, stale bool, want string) {
	var w *world
	closed := false
	w = newWorld(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Bash("echo before > before.txt")),
		// The broker closes when the first call's result comes back, before
		// the model's next turn reaches Claude Code: the second call's hook
		// finds no broker, whatever the timing.
		{When: func(r *fakemodel.Request) bool {
			if !fakemodel.AfterToolResult(r) {
				return false
			}
			if !closed {
				closed = true
				w.broker.Close()
				if stale {
					leaveStaleSocket(t, w.socket)
				}
			}
			return true
		}, Blocks: []fakemodel.Block{fakemodel.Bash("echo after > after.txt")}},
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("Stopping.")}},
	})
	w.runHeadless(t, New(Options{Mode: Headless, Sentinel: w.sentinel}), "Write two files.")

	reqs := w.model.Requests()
	if len(reqs) != 3 {
		t.Fatalf("the fake model got %d main-loop requests, want 3", len(reqs))
	}
	if !closed {
		t.Fatal("the broker was never closed: the test did not test anything")
	}
	ds := w.decisions(t)
	if len(ds) != 1 || !ds[0].Allowed() {
		t.Fatalf("broker decisions = %+v, want only the first call, allowed", ds)
	}
	if b, err := os.ReadFile(filepath.Join(w.ws, "before.txt")); err != nil || string(b) != "before\n" {
		t.Errorf("before.txt = %q (%v): the first, allowed call did not run", b, err)
	}
	// The hook denied: the call failed with the hook's reason, and did not run.
	res := onlyResult(t, reqs[2])
	t.Logf("second call's result: %q", res.Content)
	if !res.IsError || !strings.Contains(res.Content, "hook") || !strings.Contains(res.Content, "cannot reach the Sentinel broker") || !strings.Contains(res.Content, want) {
		t.Errorf("second call's result = %+v, want an error from the hook saying the broker is unreachable", res)
	}
	if _, err := os.Stat(filepath.Join(w.ws, "after.txt")); !os.IsNotExist(err) {
		t.Errorf("after.txt exists (err %v): a call ran with no broker to approve it", err)
	}
}

// leaveStaleSocket binds path and closes it without removing the file, as a
// broker killed with SIGKILL does.
func leaveStaleSocket(t *testing.T, path string) {
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Errorf("bind a stale socket: %v", err)
		return
	}
	l.SetUnlinkOnClose(false)
	l.Close()
}
