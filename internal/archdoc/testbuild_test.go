package archdoc

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// goList runs `go list args...` at the module's root and returns its lines.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	cmd := exec.Command(goBin, append([]string{"list"}, args...)...)
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v", strings.Join(args, " "), err)
	}
	return strings.Fields(strings.ReplaceAll(string(out), " [", "\x00["))
}

// No test binary compiles a package of the module a second time. When a
// package P has tests in its own package and another package's test
// imports something that imports P, go compiles P for that test, and then
// every package between, once more: runner/aider's external test (which
// runs the whole runner) made go compile runner and runner/agents again
// for aider's test binary, and a policy test importing approvals made it
// compile approvals again for policy's, on every cold build (CI starts
// from an empty cache; issue 33). A test that needs both sides goes in
// an external test package of its own, or in the importing package's tests.
func TestNoTestBinaryCompilesAnotherPackageAgain(t *testing.T) {
	var again []string
	for _, l := range goList(t, "-test", "-deps", "-f", "{{.ImportPath}}", "./...") {
		pkg, forTest, ok := strings.Cut(l, "\x00[")
		if !ok {
			continue
		}
		test := strings.TrimSuffix(strings.TrimSuffix(forTest, "]"), ".test")
		if pkg == test || pkg == test+"_test" || !strings.HasPrefix(pkg, "github.com/sentinelhq/sentinel") {
			continue
		}
		again = append(again, pkg+" for "+test+"'s tests")
	}
	slices.Sort(again)
	again = slices.Compact(again)
	for _, a := range again {
		t.Errorf("compiled twice: %s", a)
	}
}

// The end-to-end helpers link no runner: five of the end-to-end packages
// use nothing of it, and each of their -race test binaries would link
// about 70 packages more for one string (e2etest.GoCacheProgArg).
func TestEndToEndHelpersLinkNoRunner(t *testing.T) {
	deps := goList(t, "-deps", "-f", "{{.ImportPath}}", "./cmd/sentinel/internal/e2etest")
	if slices.Contains(deps, "github.com/sentinelhq/sentinel/runner") {
		t.Error("cmd/sentinel/internal/e2etest imports runner (directly or through another package)")
	}
}
