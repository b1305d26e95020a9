package runner

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxRunMethods and maxFileLines hold the run's shape (issue 34): the run
// hands the work from stage to stage, and what a stage does is in the
// stage's own type; a file holds one thing.
const (
	maxRunMethods = 24
	maxFileLines  = 500
)

// Run keeps to its API and the run's course: a new piece of the run's work
// goes to the stage it belongs to (coderStage, containment, endStage,
// gateStage, LandingStage, reportStage), not onto Run.
func TestRunStaysAHub(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	names, _ := filepath.Glob("*.go")
	var methods []string
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || len(fn.Recv.List) != 1 {
				continue
			}
			typ := fn.Recv.List[0].Type
			if s, ok := typ.(*ast.StarExpr); ok {
				typ = s.X
			}
			if id, ok := typ.(*ast.Ident); ok && id.Name == "Run" {
				methods = append(methods, fn.Name.Name)
			}
		}
	}
	if len(methods) < 10 {
		t.Fatalf("found %d methods of Run: the scan is broken", len(methods))
	}
	if len(methods) > maxRunMethods {
		t.Errorf("Run has %d methods, more than %d: %s — put the new work in the stage it belongs to", len(methods), maxRunMethods, strings.Join(methods, ", "))
	}
}

// No Go file under runner/ grows past maxFileLines: split it by what it
// holds.
func TestNoRunnerFileIsTooLong(t *testing.T) {
	t.Parallel()
	n := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n++
		if lines := bytes.Count(b, []byte("\n")); lines > maxFileLines {
			t.Errorf("runner/%s has %d lines, more than %d: split it by what it holds", path, lines, maxFileLines)
		}
		return nil
	})
	if err != nil || n < 100 {
		t.Fatalf("walked %d files: %v", n, err)
	}
}
