package hookclient

import (
	"go/build"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/sentinelhq/sentinel"

// hookPackages are the module's packages the hook links: its own small
// packages, the broker's wire and the dialects.
var hookPackages = []string{"runner/hookclient", "runner/dialects", "runner/hooks", "runner/claude/claudehook",
	"runner/codex/codexhook", "runner/opencode/opencodehook", "runner/geminicli/geminihook", "runner/crush", "approvals/wire", "policy/kind",
	"internal/journal", "internal/coderstream", "internal/flatjson"}

// The hook runs on every tool call, so what it links is kept to what it
// needs: its own small packages, the broker's wire and the standard
// library — and of that, not the net package (its cgo resolver makes a
// binary start through the dynamic loader and libc, several times a bare
// Go program's start), nothing else that needs cgo, and no regexp.
func TestHookLinksOnlyWhatItNeeds(t *testing.T) {
	seen := checkLinks(t, "the hook", "runner/hookclient", hookPackages)
	if !seen["encoding/json"] || !seen[module+"/approvals/wire"] {
		t.Fatalf("the walk missed what the hook surely links (saw %d packages)", len(seen))
	}
}

// sentinel-helper is the program that answers the hook; it is also the
// sandbox's re-executed helper, so it links the sandbox's in-namespace side
// (sandbox/inside) — but not the sandbox package itself, whose proxy needs
// net and net/http: linked, they made every hook start through the dynamic
// loader (measured: 2.4× a bare Go program's start, 1.4× without).
// Nor the stamp cache (internal/helperbin, with its HMAC and state files):
// the helper only prints its stamp. It is also the shell wrapper in place
// (internal/shellscope: the standard library and x/sys/unix only), which
// every shell start in the sandbox pays for.
func TestHelperLinksOnlyWhatItNeeds(t *testing.T) {
	seen := checkLinks(t, "sentinel-helper", "cmd/sentinel-helper",
		append([]string{"cmd/sentinel-helper", "sandbox/inside", "internal/helperbin/stamp", "internal/shellscope"}, hookPackages...))
	if !seen[module+"/sandbox/inside"] || !seen[module+"/runner/hookclient"] || !seen["golang.org/x/sys/unix"] {
		t.Fatalf("the walk missed what sentinel-helper surely links (saw %d packages)", len(seen))
	}
}

// outsideAllowed are the packages from outside the module and the
// standard library a program checked by checkLinks may link.
var outsideAllowed = map[string]bool{"golang.org/x/sys/unix": true}

// checkLinks walks the non-test imports of pkg (a directory of this
// module) from the source and reports, as errors naming what, each
// package of the module not in allowed, each outside package not in
// outsideAllowed, cgo, and the standard library's heavy packages. It
// returns every package it saw.
func checkLinks(t *testing.T, what, pkg string, allowed []string) map[string]bool {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	ok := map[string]bool{}
	for _, p := range allowed {
		ok[module+"/"+p] = true
	}
	forbidden := map[string]string{
		"net":         "its cgo resolver links libc and the dynamic loader",
		"os/user":     "it links libc through cgo",
		"runtime/cgo": "a cgo binary starts through the dynamic loader",
		"net/http":    "far more than one socket exchange",
		"regexp":      "compiled patterns at start-up",
		// any crypto package links the FIPS module, whose 32 MB DRBG
		// buffer costs every start a page-faulting pointer mask
		"crypto/internal/fips140": "the FIPS module, linked by any crypto package",
	}
	seen := map[string]bool{}
	var bad []string
	var walk func(path, from, srcDir string)
	walk = func(path, from, srcDir string) {
		if path == "C" {
			bad = append(bad, "cgo (import \"C\") in "+from)
			return
		}
		if seen[path] {
			return
		}
		seen[path] = true
		if why, ok := forbidden[path]; ok {
			bad = append(bad, path+" (imported by "+from+"): "+why)
		}
		var bp *build.Package
		var err error
		switch {
		case path == module || strings.HasPrefix(path, module+"/"):
			if !ok[path] {
				bad = append(bad, path+" (imported by "+from+")")
			}
			bp, err = build.ImportDir(filepath.Join(root, strings.TrimPrefix(strings.TrimPrefix(path, module), "/")), 0)
		default:
			bp, err = build.Default.Import(path, srcDir, 0)
			if err == nil && !bp.Goroot && !outsideAllowed[path] { // the standard library's own vendored packages are in GOROOT
				bad = append(bad, "outside module "+path+" (imported by "+from+")")
				return
			}
		}
		if err != nil {
			t.Fatalf("read %s: %v", path, err)
		}
		for _, imp := range bp.Imports {
			walk(imp, path, bp.Dir)
		}
	}
	walk(module+"/"+pkg, "the test", root)
	sort.Strings(bad)
	for _, b := range bad {
		t.Errorf("%s links %s", what, b)
	}
	return seen
}
