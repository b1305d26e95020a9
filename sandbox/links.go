package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sentinelhq/sentinel/sandbox/inside"
)

// maxLinkHops bounds the links followed for one path, as the kernel's
// own limit does.
const maxLinkHops = 40

// linksOn lists the symlinks met while resolving path as the kernel does,
// each as it is on disk (its own path, its target as read): every level of
// a link to a link, and links in a parent directory (~/tools -> /data/tools
// for ~/tools/go). A path that does not exist lists the links met before
// the missing part.
func linksOn(path string) []inside.Link {
	var out []inside.Link
	rest := strings.Split(filepath.Clean(path), "/")
	cur, hops := "/", 0
	for len(rest) > 0 {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, c)
		st, err := os.Lstat(next)
		if err != nil {
			return out
		}
		if st.Mode()&os.ModeSymlink == 0 {
			cur = next
			continue
		}
		target, err := os.Readlink(next)
		if hops++; err != nil || hops > maxLinkHops || target == "" {
			return out
		}
		l := inside.Link{Path: next, Target: target}
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
		if filepath.IsAbs(target) {
			cur = "/"
		}
		rest = append(strings.Split(target, "/"), rest...)
	}
	return out
}

// readableLinks are the links on the way to each readable path, in order,
// each once.
func readableLinks(readable []string) []inside.Link {
	var out []inside.Link
	for _, r := range readable {
		if !filepath.IsAbs(r) {
			continue
		}
		for _, l := range linksOn(r) {
			if !slices.Contains(out, l) {
				out = append(out, l)
			}
		}
	}
	return out
}
