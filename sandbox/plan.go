package sandbox

import (
	"path/filepath"
	"slices"
)

// Plan is what the coder sees, reads and writes, said once for every
// backend: bwrap and the namespaces helper mount it (Plan.mounts fills
// their inside.Spec), Seatbelt renders it as rules (seatbelt.go).
// Anything in no list is not there at all.
type Plan struct {
	System   []string // the OS's own locations: readable and executable
	Readable []string // the profile's further readable paths (PATH entries, toolchains)
	Writable []string // workspace, private temp dir, agent state and caches
	ReadOnly []string // readable, never writable: protected paths inside writable roots and Sentinel's state
	// Protected is the part of ReadOnly inside writable roots: the Linux
	// backends pin it read-only after the writable mounts (a path that is
	// also Sentinel's state is pinned too), Seatbelt denies its writes.
	Protected []string
	Hidden    []string // neither readable nor writable, wherever they are
	Sockets   []string // where the coder may connect to unix sockets: Sentinel's read-only state (the broker's)
	Net       NetMode
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
		System:    uniq(system),
		Readable:  uniq(p.Readable),
		Writable:  w,
		ReadOnly:  uniq(p.Protected, p.ReadOnly),
		Protected: uniq(p.Protected),
		Hidden:    uniq(p.Hidden),
		Sockets:   uniq(p.ReadOnly),
		Net:       p.Net,
	}
}

// mounts is the plan as the Linux backends mount it (bwrap's arguments and
// the namespaces helper both read inside.Spec): the writable roots besides
// the workspace and the private temp dir, which the spec names on their
// own; Sentinel's read-only state (where the coder may reach sockets) and,
// in their own list, the protected paths inside writable roots, which the
// helper pins read-only after the writable mounts — a path in both lists
// stays in both, or the workspace's writable mount would cover it. So the Linux mounts and the
// Seatbelt rules come from one value.
type mounts struct {
	Writable, Readable, ReadOnly, Protected, Hidden []string
}

func (pl Plan) mounts(workspace, tempDir string) mounts {
	var m mounts
	for _, w := range pl.Writable {
		if w != filepath.Clean(workspace) && (tempDir == "" || w != filepath.Clean(tempDir)) {
			m.Writable = append(m.Writable, w)
		}
	}
	m.ReadOnly = slices.Clone(pl.Sockets)
	m.Protected = slices.Clone(pl.Protected)
	m.Readable = slices.Clone(pl.Readable)
	m.Hidden = slices.Clone(pl.Hidden)
	return m
}
