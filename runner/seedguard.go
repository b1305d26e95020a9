package runner

import (
	"context"
	"os/exec"
	"sync/atomic"
	"time"

	"github.com/sentinelhq/sentinel/internal/procgroup"
)

// The seed build (verify_gocache.go) runs the go command outside any
// sandbox, in the background, for up to a minute of CPU; go starts the
// compiler, vet, the linker, the test binary and the cache program under
// it. A Sentinel that is killed (SIGKILL, or SIGTERM: the seed's build is
// the process's, not a run's, so no run's stop ends it) must not leave
// those running. So each go command of the seed build runs in a process
// group of its own, ended whole when its context ends, and on Linux under
// a guard — this binary again (SeedGuardArg) — that leads the group and
// gets a parent-death signal: when Sentinel dies, however, the guard kills
// its whole group, the go command's children included (a parent-death
// signal on the go command alone would leave them running).

// SeedGuardArg, as the sentinel binary's first argument, makes it the
// guard of one go command of the seed build (the command and its
// arguments follow): SeedGuardMain.
const SeedGuardArg = "__sentinel-seed-guard"

// seedGuardServed says this binary answers SeedGuardArg (ServesSeedGuard).
var seedGuardServed atomic.Bool

// ServesSeedGuard says this binary answers SeedGuardArg as its first
// argument (SeedGuardMain): the sentinel binary's main and this package's
// tests call it. Without it (another program linking this package) the
// seed's go commands run without the guard, still in a group of their own.
func ServesSeedGuard() { seedGuardServed.Store(true) }

// seedGoCmd is the go command goBin with args, for the seed build: in a
// group of its own that dies with Sentinel (under the guard where there is
// one) and is ended whole when ctx ends.
func seedGoCmd(ctx context.Context, goBin string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, goBin, args...)
	if exe, err := goCacheProgExe(); err == nil && seedGuardServed.Load() && guardSeed(cmd, exe) {
		cmd.Path, cmd.Args = exe, append([]string{exe, SeedGuardArg, goBin}, args...)
	}
	procgroup.Own(cmd)
	cmd.Cancel = func() error { return procgroup.Kill(cmd.Process.Pid) }
	cmd.WaitDelay = 5 * time.Second
	return cmd
}
