package runner

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/userstate"
)

// CheckInPlaceRoot refuses, before anything is made, a place that cannot be
// worked in place: the person's home directory, the root of the file
// system, or any folder that holds Sentinel's own state, cache or config.
// The whole place is writable to the coder, and Sentinel's records, keys
// and the files it shows the sandbox must not be (the sandbox would refuse
// anyway, with an error that names none of this).
func CheckInPlaceRoot(root string) error {
	here := resolvedPath(root)
	const fix = "cd into a project folder and run it again"
	if home, err := os.UserHomeDir(); err == nil && home != "" && here == resolvedPath(home) {
		return fmt.Errorf("your home directory (%s) is not a project to work in place: %s", home, fix)
	}
	if here == "/" {
		return fmt.Errorf("the root of the file system (/) is not a project to work in place: %s", fix)
	}
	for _, own := range sentinelOwnDirs() {
		if within(resolvedPath(own), here) {
			return fmt.Errorf("%s holds Sentinel's own state (%s) and is not a project to work in place: %s", root, own, fix)
		}
	}
	return nil
}

// sentinelOwnDirs are the directories Sentinel keeps its own state in:
// the state dir (records, keys, shadow git dirs), its cache (agents'
// per-run state) and its user config.
func sentinelOwnDirs() []string {
	var out []string
	if d, err := userstate.Dir(); err == nil {
		out = append(out, d)
	}
	if d, err := os.UserCacheDir(); err == nil {
		out = append(out, filepath.Join(d, "sentinel"))
	}
	if d, err := os.UserConfigDir(); err == nil {
		out = append(out, filepath.Join(d, "sentinel"))
	}
	return out
}
