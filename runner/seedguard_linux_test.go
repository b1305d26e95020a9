package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/poll"
)

// A Sentinel killed while it builds the Go cache seed takes the whole
// build with it: the go command and everything it started (here the
// seed module's test binary, which would otherwise run on for go test's
// ten minutes). The helper below is Sentinel: it builds a seed whose test
// says it runs and then waits; the test kills the helper once the test
// binary runs and waits until nothing of the build is left.
func TestASeedBuildDiesWithSentinel(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the go command")
	}
	person, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Skip("no go command:", err)
	}
	// The build starts from the process's shared core seed when a serial
	// test had it built (they all run before this parallel one resumes),
	// as a full seed starts from the core one: the standard packages'
	// compiled forms and vet facts are copied, not worked out again in
	// each build (issue 33: about 8 CPU-s a build under -race). The same
	// go test, go vet, cache program and seed test run, and are killed.
	from := sharedSeed.built
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir() // its path marks every process of the build (GOCACHE, TMPDIR)
			cmd := exec.Command(os.Args[0], "-test.run=^TestSeedBuildHelper$", "-test.count=1")
			cmd.Env = append(os.Environ(), "SENTINEL_SEED_HELPER_DIR="+dir, "GOCACHE="+string(bytes.TrimSpace(person)),
				"TMPDIR="+dir, "XDG_STATE_HOME="+filepath.Join(dir, "state"), "SENTINEL_SEED_HELPER_FROM="+from)
			out := &bytes.Buffer{}
			cmd.Stdout, cmd.Stderr = out, out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			helperDone := make(chan struct{})
			go func() { _ = cmd.Wait(); close(helperDone) }()
			t.Cleanup(func() { killMarked(dir) }) // a failed run leaves nothing behind either
			running := filepath.Join(dir, "running")
			bound := time.Now().Add(10 * time.Minute) // a hang bound: the first build may compile
			for !exists(running) {
				select {
				case <-helperDone:
					t.Fatalf("the helper ended before the seed's test ran:\n%s", out)
				case <-time.After(50 * time.Millisecond):
				}
				if time.Now().After(bound) {
					t.Fatalf("the seed's test never ran:\n%s", out)
				}
			}
			if len(marked(dir)) == 0 {
				t.Fatal("no process of the seed build found")
			}
			_ = cmd.Process.Signal(sig)
			<-helperDone
			// a hang bound: without the guard they live ten minutes
			if !poll.Paced(50*time.Millisecond, time.Minute, func() bool { return len(marked(dir)) == 0 }) {
				t.Fatalf("after %s of Sentinel, the seed build's processes run on: %v", sig, marked(dir))
			}
		})
	}
}

// TestSeedBuildHelper is Sentinel building a seed whose test waits: it
// runs only under TestASeedBuildDiesWithSentinel.
func TestSeedBuildHelper(t *testing.T) {
	t.Parallel()
	dir := os.Getenv("SENTINEL_SEED_HELPER_DIR")
	if dir == "" {
		t.Skip("a helper")
	}
	waits := seedTier{name: "waits", files: map[string]string{
		"go.mod": "module sentinel.invalid/waits\n\ngo 1.21\n",
		"waits_test.go": `package waits

import (
	"os"
	"testing"
	"time"
)

func TestWaits(t *testing.T) {
	t.Parallel()
	_ = os.WriteFile(` + strconv.Quote(filepath.Join(dir, "running")) + `, nil, 0o600)
	time.Sleep(time.Hour) // deliberate: the seed test that waits until Sentinel is killed
}
`,
	}}
	var from *goSeedDir
	if d := os.Getenv("SENTINEL_SEED_HELPER_FROM"); d != "" {
		// Signed with the test process's key, not this one's (a state
		// dir of its own): copySeed checks every file's digest anyway.
		b, err := os.ReadFile(filepath.Join(d, "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		from = &goSeedDir{dir: d}
		if err := json.Unmarshal(b, &from.manifest); err != nil {
			t.Fatal(err)
		}
	}
	_ = buildSeed(context.Background(), filepath.Join(dir, "seed"), "go version test", waits, from)
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// marked is the processes other than this one whose command line or
// environment names mark.
func marked(mark string) []int {
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		for _, f := range []string{"cmdline", "environ"} {
			b, err := os.ReadFile(filepath.Join("/proc", e.Name(), f))
			if err == nil && bytes.Contains(b, []byte(mark)) {
				if st, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil && bytes.Contains(st, []byte(") Z ")) {
					break // a zombie: gone, its parent not yet told
				}
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}

func killMarked(mark string) {
	for _, pid := range marked(mark) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}
