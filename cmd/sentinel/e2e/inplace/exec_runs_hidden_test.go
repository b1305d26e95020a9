package inplace

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/poll"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// Issue 31: in place, the coder of one exec must not read the records of
// the project's earlier runs in .sentinel/runs (their requests, decisions
// and what they read), on either backend. Read from inside, as a coder
// would. (Its own record is hidden with the rest of .sentinel/runs: nothing
// inside needs it.)
func TestExecHidesEarlierRunsRecords(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"bwrap", "ns"} {
		t.Run(mode, func(t *testing.T) {
			dir := e2etest.ScratchRepo(t)
			env := append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir(), "HOME="+t.TempDir(), "NO_COLOR=1")
			exec1 := func(script string) string {
				t.Helper()
				cmd := exec.Command(e2etest.Bin, "exec", "--plain", "--sandbox", mode, "--", "/bin/sh", "-c", script)
				cmd.Dir, cmd.Env = dir, env
				b, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("sentinel exec: %v\n%s", err, b)
				}
				return string(b)
			}
			exec1("true earlier-secret-" + "b71c")
			first := e2etest.RunIDs(t, dir)
			if len(first) != 1 {
				t.Fatalf("runs after the first exec: %v", first)
			}
			out := exec1(`for f in .sentinel/runs/*/* .sentinel/runs/*/.*; do echo "== $f"; cat "$f"; done > seen.txt 2>&1; ls -a .sentinel/runs/` + first[0] + ` > earlier.txt 2>&1; echo ran >> seen.txt`)
			seen, err := os.ReadFile(filepath.Join(dir, "seen.txt"))
			if err != nil {
				t.Fatalf("the second coder wrote nothing: %v\n%s", err, out)
			}
			if strings.Contains(string(seen), "earlier-secret-b71c") {
				t.Errorf("the coder read an earlier run's record:\n%s", seen)
			}
			if !strings.Contains(string(seen), "ran") {
				t.Errorf("the coder did not run to its end:\n%s\n%s", seen, out)
			}
			earlier, _ := os.ReadFile(filepath.Join(dir, "earlier.txt"))
			if strings.Contains(string(earlier), "events.jsonl") || strings.Contains(string(earlier), "meta.json") {
				t.Errorf("the earlier run's record directory is listed inside: %q", earlier)
			}
		})
	}
}

// Issue 31 (known gap of the first fix): a run started after an exec's
// sandbox was made (a `sentinel run`, in a copy: a second in-place run in
// the place is refused) is hidden from that exec's coder too, on either
// backend.
// The coder waits inside until the later exec has finished, then reads
// every record of .sentinel/runs it can see.
func TestExecHidesRunsStartedLater(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"bwrap", "ns"} {
		t.Run(mode, func(t *testing.T) {
			dir := e2etest.ScratchRepo(t)
			env := append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir(), "HOME="+t.TempDir(), "NO_COLOR=1")
			// The wait inside is bounded: a test that never says go ends it.
			script := `touch ready; i=0; while [ ! -e go ] && [ $i -lt 3000 ]; do sleep 0.1; i=$((i+1)); done; ` +
				`ls -a .sentinel/runs/ > listed.txt 2>&1; for f in .sentinel/runs/*/*; do echo "== $f"; cat "$f"; done > seen.txt 2>&1; echo ran >> seen.txt`
			first := exec.Command(e2etest.Bin, "exec", "--plain", "--sandbox", mode, "--", "/bin/sh", "-c", script)
			first.Dir, first.Env = dir, env
			var firstOut strings.Builder
			first.Stdout, first.Stderr = &firstOut, &firstOut
			if err := first.Start(); err != nil {
				t.Fatal(err)
			}
			if !poll.Until(e2etest.HangBound, func() bool { _, err := os.Stat(filepath.Join(dir, "ready")); return err == nil }) {
				_ = first.Process.Kill()
				t.Fatalf("the first coder never started:\n%s", firstOut.String())
			}
			// The later run works in a copy: a second in-place run in the
			// place is refused while the first is live (placelock).
			later := exec.Command(e2etest.Bin, "run", "--plain", "--coder", "command", "--sandbox", mode, "--apply", "none", "later-secret-"+"5e0a", "--", "/bin/sh", "-c", "true")
			later.Dir, later.Env = dir, env
			// Its shared checkout is read-only, which an unprivileged
			// user's TempDir cleanup cannot remove: clear it first (a
			// cleanup registered after the state dir runs before its removal).
			t.Cleanup(func() { e2etest.Sentinel(t, dir, env, "checkouts", "clear") })
			if b, err := later.CombinedOutput(); err != nil {
				_ = first.Process.Kill()
				t.Fatalf("the later run: %v\n%s", err, b)
			}
			if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := first.Wait(); err != nil {
				t.Fatalf("the first exec: %v\n%s", err, firstOut.String())
			}
			seen, _ := os.ReadFile(filepath.Join(dir, "seen.txt"))
			listed, _ := os.ReadFile(filepath.Join(dir, "listed.txt"))
			if !strings.Contains(string(seen), "ran") {
				t.Fatalf("the first coder did not run to its end:\n%s\n%s", seen, firstOut.String())
			}
			if strings.Contains(string(seen), "later-secret-5e0a") {
				t.Errorf("the first coder read the record of a run started after its sandbox:\n%s", seen)
			}
			if names := strings.Fields(string(listed)); len(names) > 2 {
				t.Errorf("the coder lists runs' records in .sentinel/runs: %q", names)
			}
		})
	}
}
