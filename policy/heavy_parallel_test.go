package policy

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"testing"
)

// heavyTests are this package's longest tests (issue 33: the suite in
// minutes): corpus sweeps of hundreds of thousands of checks under -race,
// and a go build. Each is pure computation on the shared engine (safe for
// concurrent checks: TestConcurrentChecksAgree) or a child process, so they
// run in parallel with one another instead of one after the other on a
// 2-core machine. FuzzCheck's seeds (every corpus row) run in parallel
// through t.Parallel in its fuzz function.
var heavyTests = append(slices.Clone(outsideRaceSweeps), "TestPolicyInitDoesNoWork", "FuzzCheck")

// TestHeavyTestsRunInParallel keeps them so: a heavy test that loses its
// t.Parallel puts its minutes back on the package's wall time.
func TestHeavyTestsRunInParallel(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*_test.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	fset := token.NewFileSet()
	found := map[string]bool{}
	for _, f := range files {
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range af.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Body == nil {
				continue
			}
			for _, name := range heavyTests {
				if fn.Name.Name != name {
					continue
				}
				found[name] = true
				if !callsParallel(fn.Body) {
					t.Errorf("%s (%s) does not call t.Parallel(): it is one of the package's longest tests and must not run alone", name, fset.Position(fn.Pos()))
				}
			}
		}
	}
	for _, name := range heavyTests {
		if !found[name] {
			t.Errorf("%s is gone: take it off heavyTests in %s", name, "heavy_parallel_test.go")
		}
	}
}

// callsParallel reports whether body (or a function literal in it, such as
// a fuzz function) calls X.Parallel() on a *testing.T named t.
func callsParallel(body *ast.BlockStmt) bool {
	seen := false
	ast.Inspect(body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return !seen
		}
		if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Parallel" && len(c.Args) == 0 {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "t" {
				seen = true
			}
		}
		return !seen
	})
	return seen
}
