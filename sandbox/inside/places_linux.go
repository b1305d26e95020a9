package inside

import (
	"os"
	"path/filepath"
	"slices"
)

// spliceDirs are the directories a place needs made inside something the
// sandbox shows read-only: a bind of the host's /etc cannot take a new
// /etc/claude-code. Each existing directory on the way from a shown
// location down to the place's parent is spliced: a fresh tmpfs holding its
// host entries bound one by one (read-only, symlinks as symlinks), so the
// place's own directories can be made beside them; it is made read-only
// once the place is bound. A place whose path exists on the host is bound
// over it and needs no splice. Directories not shown at all are made in the
// sandbox's own root as usual.
//
// A splice of /etc is one mount per entry (about 145 here): measured with
// BenchmarkStartWithPlaceInEtc at load 47, 177 mounts against 33 and 145
// CPU-ms against 87 per bwrap start. Fewer mounts need an overlay (the
// host's directory below a tmpfs): bubblewrap has one from 0.9
// (--overlay-src, --tmp-overlay), this machine's 0.8 has none, and its
// bind of the host's /etc cannot take the new directory (that would write
// the host's /etc). Not done: an overlay for bwrap 0.9+ and the ns backend.
func spliceDirs(sp Spec) map[string]bool {
	shown := func(d string) bool {
		for _, r := range append(slices.Clone(systemReadable), sp.Readable...) {
			if r != "/proc" && Within(d, r) {
				if st, err := os.Lstat(r); err == nil && st.Mode()&os.ModeSymlink == 0 {
					return true
				}
			}
		}
		return false
	}
	out := map[string]bool{}
	for _, pl := range sp.Places {
		if _, err := os.Lstat(pl.Path); err == nil {
			continue
		}
		for d := filepath.Dir(pl.Path); d != "/"; d = filepath.Dir(d) {
			if st, err := os.Lstat(d); err == nil && st.IsDir() && shown(d) {
				out[d] = true
			}
		}
	}
	return out
}

// sortedKeys lists a set's members, parents before children.
func sortedKeys(set map[string]bool) []string {
	var out []string
	for k := range set {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
