package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/userstate"
	"github.com/sentinelhq/sentinel/sandbox"
)

// The overlay probe (sandbox.OverlayWorks) starts a sandbox, a shell and a
// view: about a second of wall time and a tenth of a CPU second, paid by
// every `sentinel run` before its workspace is made, although its answer
// changes only with the machine. A yes is kept in the user's state
// directory (which no coder can write), signed with the user's record key,
// and used only while nothing it depends on has changed: this boot (a new
// kernel, sysctl or module state starts over), the kernel release, the
// helper program (its stamp), the sandbox mode, the user, and what the two
// scratch directories are (device, inode, owner: another file system
// mounted there starts over). A no is never kept: the next run asks again.
// A stale yes could only make a run choose an overlay that then fails to
// mount — the run stops with the sandbox's error (SENTINEL_WORKSPACE=clone
// is the way round) — never weaken the sandbox, which is the same either way.

// overlayProbeCache holds the yeses, per scratch directory pair.
var overlayProbeCache = userstate.DirCache{File: "overlay-probe-cache.json", Purpose: "runner overlay probe cache v1", Entries: 16}

// overlayProbe is the probe itself; tests count its calls.
var overlayProbe = sandbox.OverlayWorks

// overlayWorksCached is sandbox.OverlayWorks, answered from the cache when
// an unchanged machine said yes before.
func overlayWorksCached(ctx context.Context, helper string, mode sandbox.Mode, lowerScratch, upperScratch string) error {
	dir := lowerScratch + "\x00" + upperScratch
	key, ok := overlayProbeKey(helper, mode, lowerScratch, upperScratch)
	if ok {
		var yes bool
		if kept, found := overlayProbeCache.Get(dir, &yes); found && kept == key && yes {
			return nil
		}
	}
	if err := overlayProbe(ctx, helper, mode, lowerScratch, upperScratch); err != nil {
		return err
	}
	if ok {
		overlayProbeCache.Put(dir, key, true)
	}
	return nil
}

// overlayProbeKey names one question; ok is false when the boot cannot be
// told (no cache then).
func overlayProbeKey(helper string, mode sandbox.Mode, lowerScratch, upperScratch string) (string, bool) {
	boot, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil || len(boot) == 0 {
		return "", false
	}
	release, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return "", false
	}
	h := sha256.New()
	fmt.Fprintf(h, "boot %s\nkernel %s\nmode %s\nuid %d gid %d\n", boot, release, mode, os.Getuid(), os.Getgid())
	userstate.Stamp(h, helper)
	if real, err := filepath.EvalSymlinks(helper); err == nil {
		userstate.Stamp(h, real)
	}
	for _, d := range []string{lowerScratch, upperScratch} {
		userstate.StampWhatItIs(h, d)
	}
	return hex.EncodeToString(h.Sum(nil)), true
}
