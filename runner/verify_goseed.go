package runner

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// The Go build cache seed (verify_gocache.go) costs a minute of CPU the
// first time a Go version meets this machine. It is built once, by one
// builder per process at a time, and started in the background when a run
// that will verify Go starts, so the first verification finds it ready or
// nearly so instead of building it on the run's critical path in silence.

// seedWaitLine and seedWaitWhy are what a verification waiting for the
// seed says it does, and why.
const (
	seedWaitLine = "preparing the Go build cache for verification"
	seedWaitWhy  = "once per Go version on this machine"
)

// seedWaitEvery is how often a waiting verification says so.
const seedWaitEvery = 1500 * time.Millisecond

// seedFlights are the seed builds under way in this process, by root.
var seedFlights = struct {
	sync.Mutex
	m map[string]*seedFlight
}{m: map[string]*seedFlight{}}

type seedFlight struct {
	done chan struct{}
	seed goSeedDir
	err  error
}

// startSeed returns root's build under way, starting one when there is none.
// The build is the process's, not a run's: a stopped run does not end it
// (a later run would only pay for it again), and it is bounded by
// buildSeed's own timeout.
func startSeed(root string) *seedFlight {
	seedFlights.Lock()
	defer seedFlights.Unlock()
	if f := seedFlights.m[root]; f != nil {
		return f
	}
	f := &seedFlight{done: make(chan struct{})}
	seedFlights.m[root] = f
	go func() {
		f.seed, f.err = goSeed(context.Background(), root)
		seedFlights.Lock()
		delete(seedFlights.m, root)
		seedFlights.Unlock()
		close(f.done)
	}()
	return f
}

// awaitSeed is goSeed through the shared build: it waits for root's seed,
// calling wait every seedWaitEvery with how long it has waited, until the seed is
// ready or ctx ends (then the verification goes on with an empty cache).
func awaitSeed(ctx context.Context, root string, wait func(time.Duration)) (goSeedDir, error) {
	f := startSeed(root)
	start := time.Now()
	select {
	case <-f.done:
		return f.seed, f.err
	default:
		if wait != nil { // say so at once: the first tick is a while away
			wait(0)
		}
	}
	tick := time.NewTicker(seedWaitEvery)
	defer tick.Stop()
	for {
		select {
		case <-f.done:
			return f.seed, f.err
		case <-ctx.Done():
			return goSeedDir{}, ctx.Err()
		case now := <-tick.C:
			if wait != nil {
				wait(now.Sub(start))
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
// checks on dir will build Go and there is no seed yet; it returns at once.
func WarmGoSeed(dir string, checks []Check) {
	if !usesGo(dir, checks) {
		return
	}
	if root, ok := seedRoot(); ok {
		startSeed(root)
	}
}

// whileSaying runs fn, calling wait every seedWaitEvery with the time since
// start until fn returns.
func whileSaying(start time.Time, wait func(time.Duration), fn func() error) error {
	done := make(chan error, 1)
	go func() { done <- fn() }()
	tick := time.NewTicker(seedWaitEvery)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			return err
		case now := <-tick.C:
			if wait != nil {
				wait(now.Sub(start))
			}
		}
	}
}
