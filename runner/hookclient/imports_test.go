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

// The hook runs on every tool call, so what it links is kept to what it
// needs: its own small packages, the broker's wire and the standard
// library — and of that, not the net package (its cgo resolver makes a
// binary start through the dynamic loader and libc, several times a bare
// Go program's start), nothing else that needs cgo, and no regexp.
func TestHookLinksOnlyWhatItNeeds(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	allowed := map[string]bool{}
	for _, p := range []string{"runner/hookclient", "runner/dialects", "runner/hooks", "runner/claude/claudehook",
		"runner/codex/codexhook", "runner/opencode/opencodehook", "runner/gemini", "runner/crush", "approvals/wire", "policy/kind",
		"internal/journal", "internal/coderstream"} {
		allowed[module+"/"+p] = true
	}
	forbidden := map[string]string{
		"net":         "its cgo resolver links libc and the dynamic loader",
		"os/user":     "it links libc through cgo",
		"runtime/cgo": "a cgo binary starts through the dynamic loader",
		"net/http":    "far more than one socket exchange",
		"regexp":      "compiled patterns at start-up",
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
			if !allowed[path] {
				bad = append(bad, path+" (imported by "+from+")")
			}
			bp, err = build.ImportDir(filepath.Join(root, strings.TrimPrefix(strings.TrimPrefix(path, module), "/")), 0)
		default:
			bp, err = build.Default.Import(path, srcDir, 0)
			if err == nil && !bp.Goroot { // the standard library's own vendored packages are in GOROOT
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
	walk(module+"/runner/hookclient", "the test", root)
	sort.Strings(bad)
	for _, b := range bad {
		t.Errorf("the hook links %s", b)
	}
	if !seen["encoding/json"] || !seen[module+"/approvals/wire"] {
		t.Fatalf("the walk missed what the hook surely links (saw %d packages)", len(seen))
	}
}
