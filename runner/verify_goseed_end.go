package runner

import (
	"context"
	"os"
	"sync"
	"time"
)

// A seed build is the process's (startSeed): a run that ends does not end
// it. But when the process itself ends — `sentinel run` returns, the demo
// is done — its go commands die with it (seedguard.go) and the deferred
// removal of its working directory (.building-PID-…, tens of megabytes
// under the seed root) never runs. EndSeedBuilds, called by the sentinel
// binary before it exits, ends this process's builds and removes their
// directories; those of a process that died without it are removed by the
// next warm-up or build (sweepDirsOfGoneProcesses: the PID in the name is
// the only lock a seed build's directory has, and a live PID keeps it).

// seedBuildEndBound bounds how long EndSeedBuilds waits for a killed build
// to return (its go commands' WaitDelay is 5 s); a bound on a hang only.
const seedBuildEndBound = 10 * time.Second

// seedBuilds are this process's seed builds: the context they run under
// and the working directory of each under way, with a channel closed when
// it has returned and removed it.
var seedBuilds = struct {
	sync.Mutex
	ctx    context.Context
	cancel context.CancelFunc
	dirs   map[string]chan struct{}
}{dirs: map[string]chan struct{}{}}

func init() {
	seedBuilds.ctx, seedBuilds.cancel = context.WithCancel(context.Background())
}

// seedBuildContext is the context this process's seed builds run under.
func seedBuildContext() context.Context {
	seedBuilds.Lock()
	defer seedBuilds.Unlock()
	return seedBuilds.ctx
}

// newSeedBuildDir makes a seed build's working directory under root and
// records it as under way; done removes it and ends the record. None is
// made once ctx has ended: made under the same lock EndSeedBuilds ends the
// context by, every directory made before is one it waits for.
func newSeedBuildDir(ctx context.Context, root string) (dir string, done func(), err error) {
	seedBuilds.Lock()
	defer seedBuilds.Unlock()
	if err := ctx.Err(); err != nil {
		return "", nil, err
	}
	if dir, err = os.MkdirTemp(root, seedBuildPattern()); err != nil {
		return "", nil, err
	}
	ch := make(chan struct{})
	seedBuilds.dirs[dir] = ch
	return dir, func() {
		_ = os.RemoveAll(dir)
		seedBuilds.Lock()
		delete(seedBuilds.dirs, dir)
		seedBuilds.Unlock()
		close(ch)
	}, nil
}

// EndSeedBuilds ends this process's seed builds under way and removes
// their working directories; builds started later run under a new context.
// The sentinel binary calls it before it exits.
func EndSeedBuilds() {
	seedBuilds.Lock()
	seedBuilds.cancel()
	waits := make(map[string]chan struct{}, len(seedBuilds.dirs))
	for dir, ch := range seedBuilds.dirs {
		waits[dir] = ch
	}
	seedBuilds.ctx, seedBuilds.cancel = context.WithCancel(context.Background())
	seedBuilds.Unlock()
	bound := time.NewTimer(seedBuildEndBound)
	defer bound.Stop()
	for dir, ch := range waits {
		select {
		case <-ch:
		case <-bound.C:
			_ = os.RemoveAll(dir) // a build that did not return: its directory goes anyway
		}
	}
}
