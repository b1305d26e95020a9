package sandbox

import (
	"path/filepath"
	"slices"
)

// Plan is what the coder sees, reads and writes, said once for every
// backend: bwrap and the namespaces helper mount it (inside.Spec takes the
// same Profile fields), Seatbelt renders it as rules (seatbelt.go).
// Anything in no list is not there at all.
type Plan struct {
	System   []string // the OS's own locations: readable and executable
	Readable []string // the profile's further readable paths (PATH entries, toolchains)
	Writable []string // workspace, private temp dir, agent state and caches
	ReadOnly []string // readable, never writable: protected paths inside writable roots and Sentinel's state
	Hidden   []string // neither readable nor writable, wherever they are
	Sockets  []string // where the coder may connect to unix sockets: Sentinel's read-only state (the broker's)
	Net      NetMode
}

// PlanOf is p's plan with system as the OS's own locations. p is expected
// normalized (absolute, cleaned); the lists keep p's order without
// duplicates.
func PlanOf(p Profile, system []string) Plan {
	uniq := func(lists ...[]string) []string {
		var out []string
		for _, l := range lists {
			for _, s := range l {
				s = filepath.Clean(s)
				if s != "" && !slices.Contains(out, s) {
					out = append(out, s)
				}
			}
		}
		return out
	}
	w := uniq([]string{p.Workspace}, p.Writable)
	if p.TempDir != "" {
		w = uniq(w, []string{p.TempDir})
	}
	return Plan{
		System:   uniq(system),
		Readable: uniq(p.Readable),
		Writable: w,
		ReadOnly: uniq(p.Protected, p.ReadOnly),
		Hidden:   uniq(p.Hidden),
		Sockets:  uniq(p.ReadOnly),
		Net:      p.Net,
	}
}
