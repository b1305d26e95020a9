package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"

	"github.com/sentinelhq/sentinel/internal/poll"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// cmdServiceStart starts `sentinel service` for the script, in a runtime
// directory of the script's own (XDG_RUNTIME_DIR, which what the script
// runs after it gets: scripts run side by side and must not share a
// queue), and returns once `sentinel queue` answers; the script's end
// stops it.
func cmdServiceStart(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: service-start")
	}
	rt, err := os.MkdirTemp("", "sr") // short: a socket path has a limit
	if err != nil {
		ts.Fatalf("service-start: %v", err)
	}
	if err := os.Chmod(rt, 0o700); err != nil {
		ts.Fatalf("service-start: %v", err)
	}
	ts.Setenv("XDG_RUNTIME_DIR", rt)
	env := func(c *exec.Cmd) {
		c.Dir = ts.MkAbs(".")
		for _, k := range passed {
			c.Env = append(c.Env, k+"="+ts.Getenv(k))
		}
	}
	logs := filepath.Join(rt, "service.log")
	f, err := os.Create(logs)
	if err != nil {
		ts.Fatalf("service-start: %v", err)
	}
	svc := exec.Command(e2etest.Bin, "service")
	env(svc)
	svc.Stdout, svc.Stderr = f, f
	if err := svc.Start(); err != nil {
		ts.Fatalf("service-start: %v", err)
	}
	ts.Defer(func() {
		_ = svc.Process.Signal(syscall.SIGTERM)
		_ = svc.Wait()
		f.Close()
		os.RemoveAll(rt)
	})
	if !poll.Paced(e2etest.Pace, scriptBound(ts), func() bool {
		q := exec.Command(e2etest.Bin, "queue", "--json")
		env(q)
		return q.Run() == nil
	}) {
		b, _ := os.ReadFile(logs)
		ts.Fatalf("service-start: the service did not answer within %v; its log:\n%s", scriptBound(ts), b)
	}
}
