package dialects

import (
	"go/build"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/sentinelhq/sentinel"

// closure walks the non-test imports of pkg (a path in this module) from
// the source: the module's packages it reaches and the outside modules
// they import directly (the standard library left out).
func closure(t *testing.T, pkg string) (mine, outside map[string]bool) {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	mine, outside = map[string]bool{}, map[string]bool{}
	var walk func(string)
	walk = func(p string) {
		if mine[p] {
			return
		}
		mine[p] = true
		bp, err := build.ImportDir(filepath.Join(root, strings.TrimPrefix(strings.TrimPrefix(p, module), "/")), 0)
		if err != nil {
			t.Fatalf("read %s: %v", p, err)
		}
		for _, imp := range bp.Imports {
			switch {
			case imp == module || strings.HasPrefix(imp, module+"/"):
				walk(imp)
			case strings.Contains(strings.Split(imp, "/")[0], "."):
				outside[imp] = true
			}
		}
	}
	walk(pkg)
	return mine, outside
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// approvals is agent-neutral: it imports no runner package, so no agent's
// dialect can creep back into it.
func TestApprovalsImportsNoRunnerPackage(t *testing.T) {
	mine, _ := closure(t, module+"/approvals")
	for _, p := range keys(mine) {
		if p == module+"/runner" || strings.HasPrefix(p, module+"/runner/") {
			t.Errorf("approvals imports %s", p)
		}
	}
}

// `sentinel hook` runs on every tool call: the dialects add only their own
// small packages to what approvals/wire (the hook's side of the broker's
// protocol) already brings — never approvals itself, the policy engine, an
// adapter, or any outside module (runner/hookclient checks the whole
// program, standard library included).
func TestHookDialectsImportNothingHeavierThanTheWire(t *testing.T) {
	base, baseOut := closure(t, module+"/approvals/wire")
	mine, out := closure(t, module+"/runner/dialects")
	allowed := map[string]bool{}
	for _, p := range []string{"runner/dialects", "runner/hooks", "runner/claude/claudehook", "runner/codex/codexhook", "runner/geminicli/geminihook", "runner/opencode/opencodehook", "runner/crush", "internal/coderstream"} {
		allowed[module+"/"+p] = true
	}
	for _, p := range keys(mine) {
		if !base[p] && !allowed[p] {
			t.Errorf("the hook dialects import %s, which approvals/wire does not", p)
		}
	}
	for _, p := range keys(out) {
		if !baseOut[p] {
			t.Errorf("the hook dialects import outside package %s, which approvals/wire does not", p)
		}
	}
	if len(baseOut) > 0 {
		t.Errorf("approvals/wire imports outside packages %v", keys(baseOut))
	}
}
