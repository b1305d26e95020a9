package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// The Go build cache seed (verify_gocache.go) costs about 20 s of CPU the
// first time a Go version meets this machine. It is built once, by one
// builder per process at a time, and started in the background when a run
// that will verify Go starts, so the first verification finds it ready or
// nearly so instead of building it on the run's critical path in silence.
//
// Weighed (issue 33): a first verification that finds the seed not ready
// waits for it rather than going on with an empty cache while the seed
// finishes for the next run. Measured at load 15-28 on a 2-core machine,
// in a fresh home: its checks from an empty cache took 270 s (go test) and
// 41 s (go vet), and a seed build running beside them would only have
// slowed them further. Waiting is faster.
//
// Where a fresh home's seed goes (docs/measure/first-demo.sh: a new home
// whose go-build `go run ./cmd/sentinel` filled; load 15-30). Of the core
// seed's 1249 cache entries, the compiled packages came from the person's
// cache but for 8 (the testing package's own few, which sentinel does not
// link); the rest of the work is vet facts: go test and go vet each vet
// the testing package's whole closure (123 standard packages) for facts,
// under keys of their own (cmd/go keys a GOROOT package's vet by its vet
// flags, which go test and go vet set apart): 12 s and 8 s of CPU (user
// and system) that a `go run` never leaves behind, as it does not vet.
// Built alone at load 20-26, go test then go vet took 63-69 s; side by
// side 52 s (-p 8 saved 3 s more, within the noise: not taken). In the
// demo the seed was ready 64-68 s after Sentinel started at load 25-27
// (either way), 48 s at load 15, while its coder's patch is ready after
// about 20 s: the first verification still waits 26-46 s there, saying
// so every second, and its checks then take what the second run's do.

// Weighed and not done: a first tier cut to the project's own imports
// (the testing package's closure alone is the core seed's 123 packages: no
// smaller tier serves any Go project's tests); vet facts from the person's
// cache (taken already, when there: the cache program serves any action
// the build asks for; a person who has run go test or go vet anywhere has
// most of them); the verification's go command served from the seed as it
// is built (a cache program outside the sandbox answering a check inside
// it, to save the few seconds of the verification's own work).
// Measured again (issue 33, first16; docs/measure/first-demo.sh, load
// 30-64): the first demo's verification waited 89-100 s for the core seed,
// which is all of its extra time (27-33 CPU-s for the first run against
// 5 for the second: the seed's go test 11 and go vet 9); -p 8 for the
// seed's go commands took 140 s against 293 s wall at load 60-72 but 115 s
// against 137 s at load 40-48, for 10-17% more CPU: still not taken.
//
// Measured again (issue 33, first17; load 7-14): the core seed's go test
// took 3.9 CPU-s (8 compiles: the testing package's own; 77 vet runs for
// facts; a link) and its go vet 2.3 (77 vet runs), and the seed was ready
// 5-9 s after the run started, while the demo's patch came at 9-11 s: the
// first verification then took 1.5-3.3 s against the second's 1.1-3.2,
// the seed's copy (56 MB, 0.2-1 s) in both. Once built, the seed leaves
// nothing of the standard library to the verification (go test -x: the
// project's package, its test main and the link; go vet -x: the project's
// one vet run): TestAVerificationAfterTheSeedBuildsNoStandardPackage. So
// the first run's extra time is the seed's wait alone; the demo now starts
// the seed as soon as its sample's files are written (cmd/sentinel's
// demo_seed.go), 0.7-1.5 s before the run would. At load 16-36 (five
// demos each way, interleaved) the seed was ready 9-17 s after the demo
// started either way and the first verification took 1.6-41 s against the
// second's 1.0-7.1: the load decides, not the start. Where the seed takes
// longer than the coder, the verification waits for it, saying so every
// second, rather than building the same beside it.

// seedWaitLine and seedWaitWhy are what a verification waiting for the
// seed says it does, and why.
const (
	seedWaitLine = "preparing the Go build cache for verification"
	seedWaitWhy  = "once per Go version on this machine"
)

// seedWaitEvery is how often a waiting verification says so.
const seedWaitEvery = time.Second

// seedFlights are the seed builds under way in this process, by root.
var seedFlights = struct {
	sync.Mutex
	m map[string]*seedFlight
}{m: map[string]*seedFlight{}}

// seedFlight is the build of every tier of root's seeds (seedTiers), in
// order; each tier's done is closed when its seed (or error) is known.
type seedFlight struct {
	tiers []*tierFlight
	// needs are what the callers need (nil: anything); the full seed is
	// built only when one of them is not held by the core seed, so a
	// small project's runs do not each pay for it in the background.
	// Guarded by seedFlights' lock.
	needs [][]string
	root  string
	mu    sync.Mutex
	step  chan struct{} // closed, and made anew, as each tier is known
}

// known records tier i's outcome and wakes every waiter.
func (f *seedFlight) known(i int, s goSeedDir, err error) {
	f.tiers[i].seed, f.tiers[i].err = s, err
	close(f.tiers[i].done)
	f.mu.Lock()
	close(f.step)
	f.step = make(chan struct{})
	f.mu.Unlock()
}

// changed is closed when the next tier is known.
func (f *seedFlight) changed() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.step
}

type tierFlight struct {
	done chan struct{}
	seed goSeedDir
	err  error
}

// startSeed returns root's build under way, starting one when there is none.
// The build is the process's, not a run's: a stopped run does not end it
// (a later run would only pay for it again), and it is bounded by
// buildSeed's own timeout.
func startSeed(root string, need []string) *seedFlight {
	seedFlights.Lock()
	defer seedFlights.Unlock()
	if f := seedFlights.m[root]; f != nil {
		f.needs = append(f.needs, need)
		return f
	}
	f := &seedFlight{step: make(chan struct{}), needs: [][]string{need}, root: root}
	for range seedTiers {
		f.tiers = append(f.tiers, &tierFlight{done: make(chan struct{})})
	}
	seedFlights.m[root] = f
	go func() {
		ctx := seedBuildContext() // ended when the process ends (EndSeedBuilds)
		// Seeds already built are ready at once, whatever is missing
		// before them; the missing ones are built smallest first, each
		// from the one before it.
		missing := make([]bool, len(seedTiers))
		for i, t := range seedTiers {
			dir, version, err := seedDirOf(ctx, root, t)
			if err == nil {
				var s goSeedDir
				if s, err = readSeed(dir, version); err == nil {
					f.known(i, s, nil)
					continue
				}
			}
			missing[i] = true
		}
		var from *goSeedDir
		for i, t := range seedTiers {
			if missing[i] && !f.wanted(i, from) {
				return // nobody needs it: a later caller that does starts anew
			}
			if missing[i] {
				s, err := goSeedTier(ctx, root, t, from)
				f.known(i, s, err)
			}
			if f.tiers[i].err == nil {
				from = &f.tiers[i].seed
			}
		}
		seedFlights.Lock()
		delete(seedFlights.m, root)
		seedFlights.Unlock()
	}()
	return f
}

// wanted says whether tier i is to be built, the seed before it being
// from: the full seed when some caller needs what from does not hold. When
// it is not, the flight ends here, under the same lock callers join it by,
// so no caller joins a flight that will not build what it needs.
func (f *seedFlight) wanted(i int, from *goSeedDir) bool {
	if i != len(seedTiers)-1 || from == nil {
		return true
	}
	seedFlights.Lock()
	defer seedFlights.Unlock()
	for _, n := range f.needs {
		if !from.manifest.holds(n) {
			return true
		}
	}
	delete(seedFlights.m, f.root)
	return false
}

// ready is the smallest seed built so far that holds need, or the full
// seed's outcome once that is known; ok is false while neither is.
func (f *seedFlight) ready(need []string) (s goSeedDir, err error, ok bool) {
	for i, t := range f.tiers {
		if !closed(t.done) {
			continue
		}
		if i == len(f.tiers)-1 {
			return t.seed, t.err, true
		}
		if t.err == nil && t.seed.manifest.holds(need) {
			return t.seed, nil, true
		}
	}
	return goSeedDir{}, nil, false
}

func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// awaitSeed is goSeed through the shared build: it waits for root's
// smallest seed that holds need (the full one when need is nil), calling
// wait every seedWaitEvery with how long it has waited, until the seed is
// ready or ctx ends (then the verification goes on with an empty cache).
func awaitSeed(ctx context.Context, root string, need []string, wait func(time.Duration)) (goSeedDir, error) {
	f := startSeed(root, need)
	start := time.Now()
	if s, err, ok := f.ready(need); ok {
		return s, err
	}
	if wait != nil { // say so at once: the first tick is a while away
		wait(0)
		MarkSaid()
	}
	tick := time.NewTicker(seedWaitEvery)
	defer tick.Stop()
	for {
		step := f.changed() // before looking, so no tier known meanwhile is missed
		if s, err, ok := f.ready(need); ok {
			return s, err
		}
		select {
		case <-step:
		case <-ctx.Done():
			return goSeedDir{}, ctx.Err()
		case now := <-tick.C:
			if wait != nil {
				wait(now.Sub(start))
				MarkSaid()
			}
		}
	}
}

// seedRoot is where this user's seeds live.
func seedRoot() (string, bool) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", false
	}
	return filepath.Join(base, "sentinel", "verify-go-seed"), true
}

// WarmGoSeed starts building the Go build cache seed in the background when
// the verification of dir as it is now would wait for it (seedWanted: a
// check that runs and may run go) and there is no seed yet; it returns at
// once. Either way it removes the seed builds' directories of Sentinels
// that died mid-build.
func WarmGoSeed(dir string, checks []Check) {
	root, ok := seedRoot()
	if !ok {
		return
	}
	sweepDirsOfGoneProcesses(root, seedBuildPrefix)
	if !seedWanted(dir, checks) {
		return
	}
	startSeed(root, stdImports(dir)) // the project's imports as it starts
}

// whileSaying runs fn, calling wait every seedWaitEvery with the time since
// start until fn returns.
func whileSaying(start time.Time, wait func(time.Duration), fn func() error) error {
	stop := startSaying(start, wait)
	defer stop()
	return fn()
}

// seedGoRuns are the seed build's go commands, run in mod with env: go
// test (the compiled forms, and the vet facts go test's analyzers need)
// and go vet (its own facts: all of vet's analyzers, not the few go test
// runs, under another cache key), otherwise worked out again in every
// verification that vets. They share no work beyond the compiled packages
// (taken from the person's cache), so they run side by side: measured at
// the top of this file.
func seedGoRuns(ctx context.Context, goBin, mod string, env []string) error {
	runs := [][]string{{"test", "-count=1", "./..."}, {"vet", "./..."}}
	errs := make([]error, len(runs))
	var wg sync.WaitGroup
	for i, args := range runs {
		wg.Go(func() {
			cmd := seedGoCmd(ctx, goBin, args...)
			cmd.Dir, cmd.Env = mod, env
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[i] = fmt.Errorf("build the Go cache seed (go %s): %v: %s", args[0], err, tailLines(string(out), 5, 500))
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// goVersions are the go version lines already asked, by the go binary's
// path, size and time: a seed flight looks its tiers up more than once,
// each lookup a second at load 20, and the toolchain seldom changes under
// a running Sentinel (when it does, its binary's size or time does too).
var goVersions sync.Map

// goVersion is goBin's `go version` line.
func goVersion(ctx context.Context, goBin string) (string, error) {
	st, err := os.Stat(goBin)
	if err != nil {
		return "", err
	}
	key := fmt.Sprintf("%s\x00%d\x00%d", goBin, st.Size(), st.ModTime().UnixNano())
	if v, ok := goVersions.Load(key); ok {
		return v.(string), nil
	}
	out, err := exec.CommandContext(ctx, goBin, "version").Output()
	if err != nil {
		return "", err
	}
	v := strings.TrimSpace(string(out))
	goVersions.Store(key, v)
	return v, nil
}
