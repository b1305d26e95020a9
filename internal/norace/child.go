package norace

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// Child is one package's set of tests that run in the child process: the
// first of them to ask starts it, for all of them at once.
type Child struct {
	What  string   // what the tests are, for messages: "the policy sweeps"
	Env   string   // marks the child, which runs its tests itself whatever it was built with (GOFLAGS=-race must not start children forever)
	Tests []string // the top-level tests that run there

	once   sync.Once
	res    map[string]*result
	err    error
	gcOnce sync.Once // the child's GC pace, set by its first test (gc.go)
}

type result struct {
	action string   // pass, fail, skip
	output []string // the test's own lines
}

// Ran reports whether t ran in the child, with its result made t's own:
// its log lines logged, its skip t's skip, its failure t's failure. It is
// false (run the test here) in a binary built without -race and in the
// child, where its first call also paces the child's collector (gc.go).
func (c *Child) Ran(t *testing.T) bool {
	t.Helper()
	if os.Getenv(c.Env) != "" {
		c.gcOnce.Do(loosenGC)
		return false
	}
	if !RaceBuild {
		return false
	}
	c.once.Do(func() { c.res, c.err = c.run(t) })
	if c.err != nil {
		t.Fatalf("%s' child test process (built without -race): %v", c.What, c.err)
	}
	r := c.res[t.Name()]
	if r == nil {
		t.Fatalf("%s' child test process never ran %s", c.What, t.Name())
	}
	body := strings.Join(r.output, "")
	switch r.action {
	case "pass":
		t.Logf("run in a child test process built without -race:\n%s", body)
	case "skip":
		t.Skipf("skipped in the child test process:\n%s", body)
	default:
		t.Errorf("%s failed in its child test process (built without -race):\n%s", t.Name(), body)
	}
	return true
}

// run runs every test in one `go test -json` of the package in the
// current directory (go test's), built without -race (its result cached
// by go test like any other), and collects each test's lines and outcome.
func (c *Child) run(t *testing.T) (map[string]*result, error) {
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		if goBin, err = exec.LookPath("go"); err != nil {
			return nil, err
		}
	}
	cmd := exec.Command(goBin, c.goTestArgs(t)...)
	cmd.Env = append(withoutRaceFlag(os.Environ()), c.Env+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	res := map[string]*result{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var ev struct{ Action, Test, Output string }
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Test == "" {
			continue
		}
		name, _, _ := strings.Cut(ev.Test, "/")
		r := res[name]
		if r == nil {
			r = &result{}
			res[name] = r
		}
		switch ev.Action {
		case "output":
			if !strings.HasPrefix(ev.Output, "=== ") {
				r.output = append(r.output, ev.Output)
			}
		case "pass", "fail", "skip":
			if ev.Test == name {
				r.action = ev.Action
			}
		}
	}
	if len(res) == 0 && runErr != nil {
		return nil, &childError{runErr, stderr.String()}
	}
	return res, nil
}

// goTestArgs are the child's go test arguments. -vet=off: the parent's
// go test vetted the same files with the same checks, and the child's vet
// (keyed by the non-race build of the package's imports, so never the
// parent's cached result) was about 14 CPU-s of policy's run with a cold
// cache; none of these packages has a file only a non-race build holds.
func (c *Child) goTestArgs(t *testing.T) []string {
	args := []string{"test", "-json", "-vet=off", "-run", "^(" + strings.Join(c.Tests, "|") + ")$"}
	if d, ok := t.Deadline(); ok {
		args = append(args, "-timeout", time.Until(d).Round(time.Second).String())
	}
	if testing.Short() {
		args = append(args, "-short")
	}
	return append(args, ".")
}

type childError struct {
	err    error
	stderr string
}

func (e *childError) Error() string { return e.err.Error() + "\n" + e.stderr }

// withoutRaceFlag is env with -race taken out of GOFLAGS.
func withoutRaceFlag(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GOFLAGS="); ok {
			var keep []string
			for _, f := range strings.Fields(v) {
				if f != "-race" && f != "--race" && !strings.HasPrefix(f, "-race=") && !strings.HasPrefix(f, "--race=") {
					keep = append(keep, f)
				}
			}
			kv = "GOFLAGS=" + strings.Join(keep, " ")
		}
		out = append(out, kv)
	}
	return out
}
