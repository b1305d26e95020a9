package runner

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/poll"
	"github.com/sentinelhq/sentinel/sandbox"
)

// fakeSeedBuilds replaces the seeds' real builds (a minute of CPU) with
// ones that write a single cache file after release is closed, counting
// the full seed's builds.
func fakeSeedBuilds(t *testing.T) (builds *atomic.Int32, release chan struct{}) {
	t.Helper()
	builds, release = new(atomic.Int32), make(chan struct{})
	fakeSeedTiers(t, func(tier seedTier, _ *goSeedDir) {
		if tier.name == "" {
			builds.Add(1)
		}
		<-release
	})
	return builds, release
}

// fakeSeedTiers replaces the seeds' real builds with ones that call each
// (before writing anything) and write one cache file, 00/a-d, saying which
// tier wrote it; the core seed holds fmt and testing.
func fakeSeedTiers(t *testing.T, each func(tier seedTier, from *goSeedDir)) {
	t.Helper()
	// First, so they are removed after the cleanup below has run.
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	was := buildSeedFn
	buildSeedFn = func(ctx context.Context, dir, version string, tier seedTier, from *goSeedDir) error {
		each(tier, from)
		cache := filepath.Join(dir, "cache", "00")
		os.MkdirAll(cache, 0o700)
		os.WriteFile(filepath.Join(cache, "a-d"), []byte("compiled"+tier.name), 0o600)
		return signSeed(dir, version, filepath.Join(dir, "cache"), []string{"fmt", "testing"})
	}
	t.Cleanup(func() {
		// A build the test left under way finishes (the test released
		// it) before the next test's fake is put in, and before its
		// directories go.
		if !poll.Until(time.Minute, noSeedFlights) { // a bound on a hang
			t.Error("a seed build the test left under way never finished")
		}
		buildSeedFn = was
	})
}

// noSeedFlights reports whether no seed build is under way.
func noSeedFlights() bool {
	seedFlights.Lock()
	defer seedFlights.Unlock()
	return len(seedFlights.m) == 0
}

// TestGoSeedIsBuiltOnceAndKept: the seed warmed at a run's start is the one
// the verifications wait for — one build for any number of them — it is
// kept, so a later verification builds nothing, and a waiting verification
// says every second that it waits.
func TestGoSeedIsBuiltOnceAndKept(t *testing.T) {
	builds, release := fakeSeedBuilds(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module m\n"), 0o600)
	WarmGoSeed(dir, []Check{{Command: "go test ./..."}})

	var waits atomic.Int32
	var wg sync.WaitGroup
	caches := make([]string, 3)
	for i := range caches {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := privateGoCache(context.Background(), t.TempDir(), true, nil, func(time.Duration) { waits.Add(1) })
			if err != nil {
				t.Error(err)
			}
			caches[i] = c
		}()
	}
	// Each waiting verification reports within a second; the minute only
	// bounds a hang.
	if !poll.Until(time.Minute, func() bool { return waits.Load() > 0 }) {
		close(release)
		t.Fatal("no waiting verification said that it waits")
	}
	close(release)
	wg.Wait()
	for _, c := range caches {
		if b, err := os.ReadFile(filepath.Join(c, "00", "a-d")); err != nil || string(b) != "compiled" {
			t.Fatalf("a verification's cache %s did not get the seed: %v", c, err)
		}
	}
	if n := builds.Load(); n != 1 {
		t.Fatalf("the seed was built %d times for one warm-up and three verifications", n)
	}
	c, err := privateGoCache(context.Background(), t.TempDir(), true, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(c, "00", "a-d")); err != nil {
		t.Fatalf("a later verification did not get the kept seed: %v", err)
	}
	if n := builds.Load(); n != 1 {
		t.Fatalf("a later verification built the seed again (%d builds): it was not kept", n)
	}
}

// TestNoSeedForChecksThatBuildNoGo: --verify true on a Go repository (and
// a repository without Go) builds no seed; go test, make or a script in a
// Go repository may build Go, so they do.
func TestNoSeedForChecksThatBuildNoGo(t *testing.T) {
	goRepo, plain := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(goRepo, "go.mod"), []byte("module m\n"), 0o600)
	cases := []struct {
		dir, check string
		want       bool
	}{
		{goRepo, "true", false},
		{goRepo, "echo ok && true", false},
		{goRepo, "go test ./...", true},
		{goRepo, "./scripts/test.sh", true},
		{plain, "make test", true},
		{plain, "pytest -q", false},
		// Programs that run no other program never build Go, in a loop
		// or not; anything else may (issue 33: such a check must not wait
		// for the seed).
		{goRepo, "test -f go.mod", false},
		{goRepo, "grep -q module go.mod >/dev/null 2>&1 && [ -s go.mod ]", false},
		{goRepo, "for f in *.mod; do test -s \"$f\" || exit 1; done", false},
		{goRepo, "FOO=1 ! grep -q x go.mod", false},
		{goRepo, "grep x $(go list ./...)", true},
		{goRepo, "for f in $(./list.sh); do test -s $f; done", true},
		{goRepo, "./grep x", true},
		{goRepo, "sh -c 'test -f x'", true},
		{goRepo, "find . -name x -exec ./t {} +", true},
		{goRepo, "grep 'a;b' f", true},
		{plain, "test -f x", false},
	}
	for _, c := range cases {
		if got := usesGo(c.dir, []Check{{Command: c.check}}); got != c.want {
			t.Errorf("usesGo(%q) = %v, want %v", c.check, got, c.want)
		}
	}
	if t.Failed() {
		return // below, a seed build the checks wrongly start would block on the fake builder
	}
	builds, _ := fakeSeedBuilds(t)
	WarmGoSeed(goRepo, []Check{{Command: "true"}})
	if _, err := privateGoCache(context.Background(), t.TempDir(), usesGo(goRepo, []Check{{Command: "true"}}), nil, nil); err != nil {
		t.Fatal(err)
	}
	if n := builds.Load(); n != 0 {
		t.Fatalf("--verify true started %d seed builds", n)
	}
	inert := []Check{{Command: "true"}, {Command: "test -f go.mod"}, {Command: "grep -q module go.mod"}}
	WarmGoSeed(goRepo, inert)
	if _, err := privateGoCache(context.Background(), t.TempDir(), usesGo(goRepo, inert), nil, nil); err != nil {
		t.Fatal(err)
	}
	if n := builds.Load(); n != 0 {
		t.Fatalf("checks that run no go (test -f, grep) started %d seed builds: their verification waits for a seed it never uses", n)
	}
}

// TestSeedWaitSaysSoAtOnce: a verification that has to wait for the seed
// says so before its first tick, so the person never sees a silent gap
// between the patch and the first "preparing" line.
func TestSeedWaitSaysSoAtOnce(t *testing.T) {
	_, release := fakeSeedBuilds(t)
	defer close(release)
	root, ok := seedRoot()
	if !ok {
		t.Skip("no user cache dir")
	}
	first := make(chan time.Duration, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go awaitSeed(ctx, root, nil, func(d time.Duration) {
		select {
		case first <- d:
		default:
		}
	})
	if d := <-first; d != 0 {
		t.Fatalf("the first word of a waiting verification came after %v, at a tick; want at once (0)", d)
	}
}

// seedAtRegister is a registrar that notes, when the run registers (before
// its first line, its workspace and its sandbox), whether the seed build
// for root is under way.
type seedAtRegister struct {
	root string
	had  bool
}

func (s *seedAtRegister) Register(RunRegistration) Registered {
	seedFlights.Lock()
	_, s.had = seedFlights.m[s.root]
	seedFlights.Unlock()
	return nil
}

// TestSeedIsUnderWayBeforeTheRunOpens: a run that will verify Go starts
// the seed build once its coder passed the preflight and its project's
// state is fine, before the run's directory, workspace and sandbox are
// made (4-6 s at load 20-40 that the first verification otherwise waited
// for again).
func TestSeedIsUnderWayBeforeTheRunOpens(t *testing.T) {
	_, release := fakeSeedBuilds(t)
	p := stopRepo(t)
	write(t, filepath.Join(p.Root, "go.mod"), "module m\n")
	gitT(t, p.Root, "add", "-A")
	gitT(t, p.Root, "commit", "-qm", "go")
	root, ok := seedRoot()
	if !ok {
		t.Skip("no user cache dir")
	}
	reg := &seedAtRegister{root: root}
	r, err := Start(context.Background(), Options{Project: p, Task: "edit a.txt", Registrar: reg,
		Coder:   CoderOptions{Name: "command", Command: []string{"sh", "-c", "echo b > a.txt"}},
		Sandbox: SandboxOptions{Mode: sandbox.ModeOff},
		Landing: LandingOptions{Checks: []Check{{Command: "go version", Source: "flag"}}}})
	close(release)
	if err != nil {
		t.Fatal(err)
	}
	r.Stop()
	waitResult(t, r, "seed early")
	if !reg.had {
		t.Fatal("the Go seed build was not under way when the run registered (before its workspace): it starts later than it could")
	}
}
