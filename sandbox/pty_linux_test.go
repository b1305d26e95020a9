package sandbox

import (
	"bufio"
	"context"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// The runner starts the coder under a pty with pty.StartWithSize, which adds
// Setsid and Setctty to the SysProcAttr Command returned. The coder must see
// a terminal, and Ctrl-C must reach it rather than kill the sandbox.
func TestUnderPty(t *testing.T) {
	for _, mode := range modes(t) {
		t.Run(string(mode), func(t *testing.T) {
			s, err := Prepare(Profile{Workspace: t.TempDir(), Net: NetNone}, Options{Mode: mode, Helper: helperBin})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			script := `test -t 0 && echo is-a-tty; trap 'echo got-interrupt; exit 3' INT; echo ready; while :; do sleep 0.05; done`
			cmd, err := s.Command(context.Background(), "", "sh", "-c", script)
			if err != nil {
				t.Fatal(err)
			}
			f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var seen []string
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				line := strings.TrimSpace(sc.Text())
				seen = append(seen, line)
				if line == "ready" {
					f.Write([]byte{3}) // Ctrl-C
				}
				if line == "got-interrupt" {
					break
				}
			}
			err = cmd.Wait()
			joined := strings.Join(seen, "|")
			if !strings.Contains(joined, "is-a-tty") || !strings.Contains(joined, "got-interrupt") {
				t.Errorf("output %q: want is-a-tty and got-interrupt", joined)
			}
			if cmd.ProcessState.ExitCode() != 3 {
				t.Errorf("exit %v, want 3 (the command's own)", err)
			}
		})
	}
}
