package policy

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

// outsideRaceSweeps are the corpus sweeps that, in a test binary built
// with -race (the README's test command), run in one child `go test` built
// without it. Each judges corpus rows (the sweeps a few hundred thousand
// spellings) on one engine: pure computation whose concurrency
// TestConcurrentChecksAgree already checks under -race, and which the race
// detector made most of the whole package's CPU (issue 33: the suite in
// minutes on 2 cores). Every row and spelling is still judged on every
// run; only the instrumentation goes.
var outsideRaceSweeps = []string{
	"TestMetamorphicSpellingsNeverAllow",
	"TestRespellingsNeverAllow",
	"TestSpellingsNeverMorePermissive",
	"TestReadingIsNotChanged", // every corpus row, Checked twice in each of three contexts
	"TestPolcorpOffPrepared",  // four corpora in three workspaces
	// The corpus measurements (measureTSVCorpus), each row with the
	// sandbox on and off.
	"TestPol4PublicCorpus",
	"TestPolcorp10Corpus",
	"TestPolcorp1206Corpus",
	"TestPolcorp1207Corpus",
	"TestPolcorp5Corpus",
	"TestPolcorp6Corpus",
	"TestPolcorp7Corpus",
	"TestPolcorp8Corpus",
	"TestPolcorp9Corpus",
	"TestReview1207Corpus",
	"TestCorpusReport",
}

// sweepChildEnv marks the child, which runs its sweeps itself whatever it
// was built with (GOFLAGS=-race must not start children forever).
const sweepChildEnv = "SENTINEL_POLICY_SWEEP_CHILD"

// sweepChild is the one child run the sweeps share, and what it said per
// test (test2json events).
var sweepChild struct {
	once sync.Once
	res  map[string]*sweepResult
	err  error
}

type sweepResult struct {
	action string   // pass, fail, skip
	output []string // the test's own lines
}

// sweptOutsideRace reports whether t's sweep ran in the child, with its
// result made t's own: its log lines logged, its failure t's failure. It
// is false (run the sweep here) in a binary built without -race and in the
// child.
func sweptOutsideRace(t *testing.T) bool {
	t.Helper()
	if !raceBuild || os.Getenv(sweepChildEnv) != "" {
		return false
	}
	sweepChild.once.Do(func() { sweepChild.res, sweepChild.err = runSweepChild(t) })
	if sweepChild.err != nil {
		t.Fatalf("the policy sweeps' child test process (built without -race): %v", sweepChild.err)
	}
	r := sweepChild.res[t.Name()]
	if r == nil {
		t.Fatalf("the policy sweeps' child test process never ran %s", t.Name())
	}
	body := strings.Join(r.output, "")
	switch r.action {
	case "pass":
		t.Logf("judged in a child test process built without -race:\n%s", body)
	case "skip":
		t.Skipf("skipped in the child test process:\n%s", body)
	default:
		t.Errorf("%s failed in its child test process (built without -race):\n%s", t.Name(), body)
	}
	return true
}

// runSweepChild runs every sweep in one `go test -json` of this package,
// built without -race (its result cached by go test like any other), and
// collects each sweep's lines and outcome.
func runSweepChild(t *testing.T) (map[string]*sweepResult, error) {
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		if goBin, err = exec.LookPath("go"); err != nil {
			return nil, err
		}
	}
	args := []string{"test", "-json", "-run", "^(" + strings.Join(outsideRaceSweeps, "|") + ")$"}
	if d, ok := t.Deadline(); ok {
		args = append(args, "-timeout", time.Until(d).Round(time.Second).String())
	}
	if testing.Short() {
		args = append(args, "-short")
	}
	cmd := exec.Command(goBin, append(args, ".")...)
	cmd.Env = append(withoutRaceFlag(os.Environ()), sweepChildEnv+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	res := map[string]*sweepResult{}
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
			r = &sweepResult{}
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
		return nil, &sweepChildError{runErr, stderr.String()}
	}
	return res, nil
}

type sweepChildError struct {
	err    error
	stderr string
}

func (e *sweepChildError) Error() string { return e.err.Error() + "\n" + e.stderr }

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
