package tmux

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// probeSocket is a script the coder runs: it lists the service's
// directories and tries to talk to the service on each socket path.
const probeSocket = `import os, socket, sys
for d in sys.argv[1:]:
    try:
        print("LISTED", d, os.listdir(d))
    except Exception as e:
        print("NOLIST", d, type(e).__name__)
    p = os.path.join(d, "service.sock")
    try:
        s = socket.socket(socket.AF_UNIX)
        s.connect(p)
        s.sendall(b'{"v":1,"op":"queue.list"}\n')
        print("CONNECTED", p, s.recv(200))
    except Exception as e:
        print("NOCONNECT", p, type(e).__name__)
`

// TestCoderCannotReachServiceSocket: a sandboxed coder can neither list
// the service's directory nor connect to its socket — not at
// $XDG_RUNTIME_DIR/sentinel, not at /tmp/sentinel-UID — even when the
// person's config makes the runtime dir readable in the sandbox (the run
// hides the service's directory whatever a profile shows).
func TestCoderCannotReachServiceSocket(t *testing.T) {
	t.Parallel()
	py := "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("no /usr/bin/python3")
		}
		t.Skip("no /usr/bin/python3")
	}
	if _, err := exec.LookPath("bwrap"); err != nil && os.Getenv("CI") != "true" {
		t.Skip("no sandbox backend")
	}
	svc := startUserService(t, "")
	// The person's config shows the runtime dir to the sandbox.
	e2etest.WriteFile(t, filepath.Join(svc.cfg, "sentinel", "config.toml"), fmt.Sprintf("[sandbox]\nreadable = [%q]\n", svc.rt))
	dir := e2etest.ScratchRepo(t)
	e2etest.WriteFile(t, filepath.Join(dir, "probe.py"), probeSocket)
	e2etest.Git(t, dir, "add", "probe.py")
	e2etest.Git(t, dir, "commit", "-qm", "probe")
	svcDir := filepath.Join(svc.rt, "sentinel")
	tmpDir := filepath.Join(os.TempDir(), fmt.Sprintf("sentinel-%d", os.Getuid()))
	res := e2etest.Sentinel(t, dir, svc.env, "run", "--plain", "--apply", "none", "--coder", "command", "probe",
		"--", py, "probe.py", svcDir, tmpDir)
	if res.Code != 0 {
		t.Fatalf("exit %d\n%s%s", res.Code, res.Stdout, res.Stderr)
	}
	// a hidden directory shows empty; the socket must not be in it
	if strings.Contains(res.Stdout, "CONNECTED") || strings.Contains(res.Stdout, "'service.sock'") ||
		!strings.Contains(res.Stdout, "NOCONNECT "+filepath.Join(svcDir, "service.sock")) ||
		!strings.Contains(res.Stdout, "NOCONNECT "+filepath.Join(tmpDir, "service.sock")) {
		t.Fatalf("the coder reached the service's directory or socket:\n%s", res.Stdout)
	}
	// and the service is there for the run itself, outside the sandbox
	if _, err := os.Stat(filepath.Join(svcDir, "service.sock")); err != nil {
		t.Fatal(err)
	}
}
