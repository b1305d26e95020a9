package sandbox

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoExportedPackageVariables: the sandbox's lists (credential paths,
// protected names, system locations, toolchain secrets) decide what a coder
// can reach, so no other package may change them at run time — neither
// this package's nor its in-namespace side's (sandbox/inside). An exported
// package-level variable would let one; read access, where another package
// needs it, goes through a function returning a copy.
func TestNoExportedPackageVariables(t *testing.T) {
	allowed := map[string]bool{}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	inner, err := filepath.Glob(filepath.Join("inside", "*.go"))
	if err != nil || len(inner) == 0 {
		t.Fatalf("sandbox/inside's files: %v (found %d)", err, len(inner))
	}
	files = append(files, inner...)
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				for _, n := range s.(*ast.ValueSpec).Names {
					if n.IsExported() && !allowed[n.Name] {
						t.Errorf("%s: package variable %s is exported: unexport it (give other packages a function returning a copy)", fset.Position(n.Pos()), n.Name)
					}
				}
			}
		}
	}
}
