package policy

import (
	"path/filepath"
	"strings"
)

// cd into a directory a glob picks (polcorp7 class 4): `for d in
// packages/*/; do (cd "$d" && npm test); done` goes into each directory
// below packages, all inside the workspace, though none is known by name.
// The new working directory is the glob's directory with each globbed
// element standing for one match ("glob-match", as a globbed path's
// target is judged everywhere): relative paths after it resolve inside
// the workspace at the right depth, and `..` leaves as it would. A glob
// that may match hidden entries (.git, .vscode) or is a brace expansion
// stays unknown, as does any other expansion.

// cdGlobTarget returns the path a cd to the glob pattern v is judged at,
// relative or absolute as v is; false when it may match hidden entries.
func cdGlobTarget(v string) (string, bool) {
	for strings.HasPrefix(v, "./") {
		v = strings.TrimLeft(v[2:], "/")
	}
	if v == "" || hiddenGlob(v) || strings.ContainsAny(v, "{") {
		return "", false
	}
	els := strings.Split(strings.TrimRight(v, "/"), "/")
	for i, el := range els {
		if hasGlobMeta(el) {
			els[i] = "glob-match"
		}
	}
	out := strings.Join(els, "/")
	if strings.HasPrefix(v, "/") && !filepath.IsAbs(out) {
		out = "/" + out
	}
	return out, out != ""
}
