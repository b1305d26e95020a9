package runner

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// A verification killed before its deferred removal leaves its ~100 MB Go
// cache behind; the next verification removes it, and only it.
func TestSweepRemovesOnlyCachesOfGoneProcesses(t *testing.T) {
	parent := t.TempDir()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	deadPid := gone.Process.Pid
	mk := func(name string) string {
		p := filepath.Join(parent, name)
		if err := os.MkdirAll(filepath.Join(p, "00"), 0o700); err != nil {
			t.Fatal(err)
		}
		return p
	}
	dead := mk(goCachePrefix + strconv.Itoa(deadPid) + "-123")
	live := mk(goCachePrefix + strconv.Itoa(os.Getpid()) + "-456")
	legacy := mk(goCachePrefix + "789")
	other := mk("something-else")

	dir, err := privateGoCache(t.Context(), parent, false, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("the cache of a gone process is still there: %v", err)
	}
	for _, keep := range []string{live, legacy, other, dir} {
		if _, err := os.Stat(keep); err != nil {
			t.Errorf("%s was removed: %v", keep, err)
		}
	}
}
