package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sentinelhq/sentinel/internal/filestamp"
	"github.com/sentinelhq/sentinel/internal/procgroup"
)

// goCachePrefix names a verification's private Go build cache; the pid of
// the Sentinel that made it follows, so a later run can tell a cache whose
// owner was killed (and never removed it) from one still in use.
const goCachePrefix = "sentinel-verify-gocache-"

func goCachePattern() string { return fmt.Sprintf("%s%d-*", goCachePrefix, os.Getpid()) }

// sweepStaleGoCaches removes, under parent, the private Go build caches of
// verifications whose Sentinel is gone (killed before its deferred removal
// ran — about 100 MB each). Only this user's directories are touched; one
// whose owner may still run (a live pid, or a name without a pid) is kept.
func sweepStaleGoCaches(parent string) {
	if parent == "" {
		parent = os.TempDir()
	}
	sweepDirsOfGoneProcesses(parent, goCachePrefix)
}

// seedBuildPrefix names a seed build's working directory under the seed
// root; the pid of the Sentinel building it follows, as for the caches.
const seedBuildPrefix = ".building-"

func seedBuildPattern() string { return fmt.Sprintf("%s%d-*", seedBuildPrefix, os.Getpid()) }

// sweepDirsOfGoneProcesses removes this user's directories under parent
// named prefix+PID-… whose process is gone.
func sweepDirsOfGoneProcesses(parent, prefix string) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	uid := os.Getuid()
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || !strings.HasPrefix(name, prefix) {
			continue
		}
		pidText, _, ok := strings.Cut(strings.TrimPrefix(name, prefix), "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || pidAlive(pid) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		if st, isStat := filestamp.Of(info); !isStat || st.UID != uid {
			continue
		}
		_ = os.RemoveAll(filepath.Join(parent, name))
	}
}

// pidAlive reports whether a process with this pid exists (one of another
// user's counts: its cache is not ours to judge).
func pidAlive(pid int) bool {
	return procgroup.Alive(pid)
}
