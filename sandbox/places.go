package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
)

// PlacesEnforced says whether a sandbox in mode m shows Profile.Places: the
// Linux backends do; --sandbox off and macOS's Seatbelt do not.
func PlacesEnforced(m Mode) bool {
	return runtime.GOOS == "linux" && m != ModeOff
}

// normalizePlaces checks the places: absolute paths, an existing source,
// a path that neither covers nor sits inside the sandbox's own /dev, /tmp
// or the workspace, and a source the coder cannot write through a writable
// root (it would change what is shown).
func normalizePlaces(places []Place, workspace string, writable []string) ([]Place, error) {
	var out []Place
	for _, pl := range places {
		if !filepath.IsAbs(pl.Path) || !filepath.IsAbs(pl.Source) {
			return nil, fmt.Errorf("sandbox profile: place %q from %q: both paths must be absolute", pl.Path, pl.Source)
		}
		pl.Path, pl.Source = filepath.Clean(pl.Path), resolve(filepath.Clean(pl.Source))
		if _, err := os.Stat(pl.Source); err != nil {
			return nil, fmt.Errorf("sandbox profile: place %s: its source %s is missing (%v)", pl.Path, pl.Source, err)
		}
		if pl.Path == "/" || coversPrivateMount(pl.Path) != "" || within(resolve(pl.Path), "/tmp") || within(resolve(pl.Path), "/dev") {
			return nil, fmt.Errorf("sandbox profile: place %s would cover or sit in the sandbox's own mounts; choose another path", pl.Path)
		}
		for _, w := range append([]string{workspace}, writable...) {
			if within(resolve(pl.Path), w) || within(w, resolve(pl.Path)) {
				return nil, fmt.Errorf("sandbox profile: place %s overlaps the writable %s; choose a path outside it", pl.Path, w)
			}
			if within(pl.Source, w) {
				return nil, fmt.Errorf("sandbox profile: place %s: its source %s is inside the writable %s; write it somewhere the sandbox does not show writable", pl.Path, pl.Source, w)
			}
		}
		out = append(out, pl)
	}
	return out, nil
}

// checkAgentState checks Profile.AgentState: each a root of writable that
// lies in no other writable root (the workspace, the private /tmp
// included), or no Landlock rule could leave it out of the commands'
// writes.
func checkAgentState(state []string, workspace string, writable []string) error {
	for _, a := range state {
		if !slices.Contains(writable, a) {
			return fmt.Errorf("sandbox profile: agent state %s is not one of the writable roots", a)
		}
		for _, w := range append([]string{workspace, "/tmp", "/dev"}, writable...) {
			if w != a && within(a, w) {
				return fmt.Errorf("sandbox profile: agent state %s lies in the writable %s, so its commands could write it; keep it outside", a, w)
			}
		}
	}
	return nil
}
