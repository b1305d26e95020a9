package inside

import "path/filepath"

// linkOps are the symlinks of sp.Links the root must hold: a readable path
// reached through a link in the home (~/.cargo -> /data/cargo, a link to a
// link, ~/tools -> /data/tools for ~/tools/go) is bound at its real
// location, and its links are made again as links so the person's path
// (PATH's ~/.cargo/bin, GOPATH's ~/go) leads there too. A link is left out
// where a host directory shown at its own path holds it already (it shows
// its own links, and making one there would write to the host: the
// workspace), where a mount or a place lies below it, in the system
// locations (/proc among them) and in the sandbox's /dev. A link only
// names a path: it makes nothing readable that is not bound.
func linkOps(sp Spec, binds []mountOp, taken map[string]bool) []mountOp {
	var out []mountOp
	for _, l := range sp.Links {
		p := filepath.Clean(l.Path)
		if !filepath.IsAbs(p) || p == "/" || l.Target == "" || taken[p] || Within(p, "/dev") {
			continue
		}
		clash := false
		for _, b := range binds {
			if Within(b.dst, p) || (b.src == b.dst && Within(p, b.dst)) {
				clash = true
			}
		}
		for _, pl := range sp.Places {
			if Within(pl.Path, p) {
				clash = true // a place is made at its path, not through a link
			}
		}
		for _, s := range systemReadable {
			if Within(p, s) || Within(s, p) {
				clash = true
			}
		}
		if !clash {
			taken[p] = true
			out = append(out, mountOp{kind: mountSymlink, src: l.Target, dst: p})
		}
	}
	return out
}
