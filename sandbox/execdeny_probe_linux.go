package sandbox

import (
	"context"
	"fmt"
	"github.com/sentinelhq/sentinel/internal/hostbin"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// deniedExecCheck is doctor's line for [service] denied_executables: it
// denies the system's `true` by path in a trial sandbox of the first
// working backend and checks that running it fails.
func deniedExecCheck(helper string, modes []Mode) Check {
	name := "denied_executables"
	if len(modes) == 0 {
		return Check{Name: name, Detail: "no sandbox backend works here, so none can be refused",
			Fix: "fix a backend above, or leave [service] denied_executables empty (a run with it refuses to start)"}
	}
	tr, err := hostbin.Find("true")
	if err == nil {
		tr, err = filepath.EvalSymlinks(tr)
	}
	if err != nil {
		return Check{Name: name, Detail: "no `true` program to try it on: " + err.Error()}
	}
	ws, err := os.MkdirTemp("", "sentinel-doctor-")
	if err != nil {
		return Check{Name: name, Detail: err.Error(), Fix: "make the temp directory writable"}
	}
	defer os.RemoveAll(ws)
	s, err := Prepare(Profile{Workspace: ws, Net: NetNone, DeniedExecutables: []string{tr}}, Options{Mode: modes[0], Helper: helper})
	if err != nil {
		return Check{Name: name, Detail: err.Error(), Fix: "leave [service] denied_executables empty on this machine"}
	}
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd, err := s.Command(ctx, ws, tr)
	if err != nil {
		return Check{Name: name, Detail: err.Error()}
	}
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "permission denied") {
		return Check{Name: name, Detail: fmt.Sprintf("a denied %s was not refused (%v %s)", tr, err, strings.TrimSpace(string(out))),
			Fix: "leave [service] denied_executables empty on this machine, and report this"}
	}
	return Check{Name: name, OK: true, Detail: fmt.Sprintf("enforced (--sandbox %s): Landlock refuses running or reading a denied program; seccomp notices the refusal", modes[0])}
}
