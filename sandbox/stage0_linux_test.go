package sandbox

import (
	"context"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/poll"
)

// TestBwrapStartsWithKeyboardSignalsIgnored: bwrap sits in the terminal's
// foreground process group and must not die of a Ctrl-C meant for the
// command. Whether the caller ignores SIGINT and SIGQUIT already (bwrap is
// started directly) or not (the system shell ignores them first), the
// running bwrap ignores both.
func TestBwrapStartsWithKeyboardSignalsIgnored(t *testing.T) {
	bw, err := exec.LookPath("bwrap")
	if err != nil {
		t.Skip("bwrap is not installed")
	}
	bwReal, _ := filepath.EvalSymlinks(bw)
	for _, callerIgnores := range []bool{false, true} {
		t.Run("caller ignores "+strconv.FormatBool(callerIgnores), func(t *testing.T) {
			if callerIgnores {
				signal.Ignore(syscall.SIGINT, syscall.SIGQUIT)
				t.Cleanup(func() { signal.Reset(syscall.SIGINT, syscall.SIGQUIT) })
			}
			s, err := Prepare(Profile{Workspace: t.TempDir(), Net: NetNone}, Options{Mode: ModeBwrap, Helper: helperBin})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			cmd, err := s.Command(context.Background(), "", "sleep", "60")
			if err != nil {
				t.Fatal(err)
			}
			if direct := cmd.Path == bw; direct != callerIgnores {
				t.Fatalf("started %s (direct %v), want bwrap started directly only when the caller ignores the signals", cmd.Path, direct)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Wait()
			defer cmd.Process.Kill()
			pid := strconv.Itoa(cmd.Process.Pid)
			poll.Must(t, 30*time.Second, "the started process becoming bwrap", func() bool {
				exe, _ := os.Readlink("/proc/" + pid + "/exe")
				return exe == bwReal
			})
			status, err := os.ReadFile("/proc/" + pid + "/status")
			if err != nil {
				t.Fatal(err)
			}
			var ign uint64
			for _, l := range strings.Split(string(status), "\n") {
				if v, ok := strings.CutPrefix(l, "SigIgn:"); ok {
					ign, _ = strconv.ParseUint(strings.TrimSpace(v), 16, 64)
				}
			}
			for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGQUIT} {
				if ign&(1<<(uint(sig)-1)) == 0 {
					t.Errorf("bwrap does not ignore %v (SigIgn %x)", sig, ign)
				}
			}
		})
	}
}
