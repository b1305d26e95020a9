package runner

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestStagesDoNotReachBackIntoTheRun: a stage is given values and
// functions, never the *Run, so it cannot grow back into it (doc.go).
func TestStagesDoNotReachBackIntoTheRun(t *testing.T) {
	t.Parallel()
	stages := map[string]bool{"LandingStage": true, "gateStage": true, "reportStage": true, "reviewDesk": true, "Workspace": true, "Verifier": true}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || !stages[ts.Name.Name] {
				return true
			}
			found[ts.Name.Name] = true
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return false
			}
			for _, fl := range st.Fields.List {
				ast.Inspect(fl.Type, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok && id.Name == "Run" {
						t.Errorf("%s: %s holds the Run (%s); give it the values and functions it needs", fset.Position(fl.Pos()), ts.Name.Name, id.Name)
					}
					return true
				})
			}
			return false
		})
	}
	for s := range stages {
		if !found[s] {
			t.Errorf("stage type %s not found: update this test with the stage's new name", s)
		}
	}
}
