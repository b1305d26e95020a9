package runner

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/sandbox"
)

// Where the seed's compiled standard library comes from.
//
// Building the seed from nothing compiles the standard library once per
// machine and Go version: a minute of CPU, over nine at load 30, and the
// first verification waits for all of it. But the person who runs Sentinel
// almost always has those compiled packages already: `go run
// ./cmd/sentinel` just compiled them into their own build cache. So the
// seed build (still Sentinel's own module, outside any sandbox) runs with
// a GOCACHEPROG — this binary (GoCacheProgMain) — that answers each
// action the go command asks for from the person's cache when it holds
// it, and copies what it used into the seed. The seed is then signed and
// copied into each verification's private cache exactly as before.
//
// Weighed and chosen:
//   - Trust. Nothing can check that a cache entry is what its action
//     produces, so the person's cache is used only because it is already
//     trusted by every build they run on the host, and only if no coder can
//     write it: every sandbox profile keeps it read-only when it lies in a
//     writable root, makes it first when missing, and refuses a writable
//     root inside it (sandbox.PersonGoCache); the MCP file tools keep it
//     read-only too. A run with --sandbox off gives a coder everything, the
//     person's cache included, as it does their shell start-up files.
//   - Read-only, and only what is asked. The program opens the person's
//     files O_RDONLY|O_NOFOLLOW and writes nothing there (not even go's
//     "mark used" mtime); it reads only entries whose action IDs the seed
//     build asks for — the standard library and Sentinel's seed module,
//     never a project's code — and takes an entry only when its output's
//     bytes are what its digest names and each file is the user's own and
//     writable by nobody else. Anything else is a miss, compiled as before.
//     A verification never sees the person's cache: it gets a copy of the
//     signed seed, whose entries a check cannot change for the next one.
//   - Not an overlay over the person's cache inside the verification
//     sandbox: a check could then read every other project's compiled
//     packages, and it needs mount support on every backend (no Seatbelt).
//   - Not a seed cut to the project's imports (`go list -deps -test`):
//     listing runs the go command on the coder's go.mod outside the sandbox,
//     and from a cold cache it still compiles what it lists; the fixed seed
//     module already holds what the tests of most modules import.
//
// A cold or absent person's cache, or any failure of this path, is only
// slower: the seed build then runs again without the program.

// personGoCacheSource is the person's build cache to seed from, when there
// is one: an existing directory that is not dst.
func personGoCacheSource(dst string) (string, bool) {
	src, ok := sandbox.PersonGoCache(os.Getenv)
	if !ok {
		return "", false
	}
	if r, err := filepath.EvalSymlinks(src); err == nil {
		src = r
	}
	if st, err := os.Stat(src); err != nil || !st.IsDir() {
		return "", false
	}
	if d, err := filepath.EvalSymlinks(filepath.Dir(dst)); err == nil && (within(d, src) || within(src, d)) {
		return "", false
	}
	return src, true
}

// goCacheProgExe is the binary that serves GoCacheProgArg; tests replace
// it with their own binary.
var goCacheProgExe = os.Executable

// goCacheProgEnv is the GOCACHEPROG setting that seeds dst from the
// person's cache, or "" when there is nothing to seed from.
func goCacheProgEnv(dst string) string {
	src, ok := personGoCacheSource(dst)
	if !ok {
		return ""
	}
	exe, err := goCacheProgExe()
	if err != nil {
		return ""
	}
	words := []string{exe, GoCacheProgArg, src, dst}
	for i, w := range words {
		q, ok := quoteCacheProgWord(w)
		if !ok {
			return ""
		}
		words[i] = q
	}
	return "GOCACHEPROG=" + strings.Join(words, " ")
}

// quoteCacheProgWord quotes w the way the go command splits GOCACHEPROG
// (cmd/internal/quoted: single or double quotes, nothing escaped inside).
func quoteCacheProgWord(w string) (string, bool) {
	switch {
	case !strings.ContainsAny(w, " \t\n\r'\""):
		return w, true
	case !strings.Contains(w, `"`):
		return `"` + w + `"`, true
	case !strings.Contains(w, "'"):
		return "'" + w + "'", true
	}
	return "", false
}
