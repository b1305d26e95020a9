package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const e2etestPath = "github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"

// cmd/sentinel and the packages under e2e/ call cmd/sentinel/internal/e2etest
// by its own names: a local alias (var git = e2etest.Git, type tmuxRun struct{
// *e2etest.Tmux }, a function that only passes its arguments on to an
// e2etest one) is a second name for one helper, and a test moved between
// packages would mean something else where the aliases differ.
func TestNoE2EAliases(t *testing.T) {
	pkgs, _ := filepath.Glob(filepath.Join("e2e", "*", "doc.go"))
	if len(pkgs) == 0 {
		t.Fatal("no packages under e2e/: run from cmd/sentinel")
	}
	dirs := []string{"."} // cmd/sentinel's own tests too
	for _, doc := range pkgs {
		dirs = append(dirs, filepath.Dir(doc))
	}
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, a := range e2etestAliases(t, files...) {
			t.Errorf("%s: call the e2etest name directly (an entry point two packages need goes to e2etest)", a)
		}
	}
}

// TestNoE2EAliasesFindsThem: the check above sees each kind of alias.
func TestNoE2EAliasesFindsThem(t *testing.T) {
	src := `package x

import (
	"testing"

	e2e "` + e2etestPath + `"
)

var git, other = e2e.Git, 1

const hangBound = e2e.HangBound

type (
	result  = e2e.Result
	tmuxRun struct{ *e2e.Tmux; t *testing.T }
	ok      struct{ n int }
)

func sentinel(t *testing.T, dir string, env []string, args ...string) e2e.Result {
	t.Helper()
	return e2e.Run(t, e2e.Bin, dir, env, args...)
}

func startTmux(t *testing.T, dir string, env []string) *tmuxRun {
	return &tmuxRun{e2e.StartSentinel(t, dir, env), t}
}

func (w *ok) run(t *testing.T, args ...string) e2e.Result { return w.other(t, args...) }

func (tm *tmuxRun) keys(k ...string) { tm.Keys(k...) }

func scenario(t *testing.T) e2e.Result { return e2e.Run(t, e2e.Bin, ".", nil, "run", "--plain") }
`
	path := filepath.Join(t.TempDir(), "x_test.go")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got := e2etestAliases(t, path)
	for i := range got {
		got[i] = strings.TrimPrefix(got[i], path+": ")
	}
	want := []string{"var git", "const hangBound", "type result", "type tmuxRun", "func sentinel", "func startTmux", "method keys"}
	if len(got) != len(want) {
		t.Fatalf("found %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("found %q, want %q", got, want)
		}
	}
}

// e2etestAliases lists the declarations in one package's files that alias
// e2etest names, each as "file: kind name".
func e2etestAliases(t *testing.T, paths ...string) []string {
	t.Helper()
	fset := token.NewFileSet()
	var files []*ast.File
	for _, p := range paths {
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	wrappers := map[string]bool{} // types wrapping an e2etest one
	var found []string
	for pass := 0; pass < 2; pass++ {
		for i, f := range files {
			for _, a := range fileAliases(f, pass, wrappers) {
				found = append(found, paths[i]+": "+a)
			}
		}
	}
	return found
}

// fileAliases lists f's aliases of e2etest names: its types, vars and consts
// on pass 0 (noting its wrapper types), its functions and methods on pass 1.
func fileAliases(f *ast.File, pass int, wrappers map[string]bool) []string {
	local := ""
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == e2etestPath {
			local = "e2etest"
			if imp.Name != nil {
				local = imp.Name.Name
			}
		}
	}
	if local == "" {
		return nil
	}
	// isE2E says whether e is an e2etest name, or a pointer to one.
	isE2E := func(e ast.Expr) bool {
		if s, ok := e.(*ast.StarExpr); ok {
			e = s.X
		}
		s, ok := e.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		id, ok := s.X.(*ast.Ident)
		return ok && id.Name == local
	}
	var found []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if pass != 0 {
				continue
			}
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					for i, v := range s.Values {
						if isE2E(v) && i < len(s.Names) {
							found = append(found, d.Tok.String()+" "+s.Names[i].Name)
						}
					}
				case *ast.TypeSpec:
					wraps := isE2E(s.Type)
					if st, ok := s.Type.(*ast.StructType); ok {
						for _, fl := range st.Fields.List {
							wraps = wraps || (len(fl.Names) == 0 && isE2E(fl.Type))
						}
					}
					if wraps {
						wrappers[s.Name.Name] = true
						found = append(found, "type "+s.Name.Name)
					}
				}
			}
		case *ast.FuncDecl:
			if pass == 1 && passesOn(d, isE2E, wrappers) {
				kind := "func "
				if d.Recv != nil {
					kind = "method "
				}
				found = append(found, kind+d.Name.Name)
			}
		}
	}
	return found
}

// passesOn says whether fn, after t.Helper() calls, only calls an e2etest
// function (or, as a method of a wrapper type, its own receiver's method)
// with its own parameters in their order, bar e2etest names (such as
// e2etest.Bin) bound in: a wrapper that renames.
func passesOn(fn *ast.FuncDecl, isE2E func(ast.Expr) bool, wrappers map[string]bool) bool {
	var params []string
	for _, fl := range fn.Type.Params.List {
		for _, n := range fl.Names {
			params = append(params, n.Name)
		}
	}
	var stmts []ast.Stmt
	for _, s := range fn.Body.List {
		if es, ok := s.(*ast.ExprStmt); ok {
			if c, ok := es.X.(*ast.CallExpr); ok {
				if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Helper" {
					continue
				}
			}
		}
		stmts = append(stmts, s)
	}
	if len(stmts) != 1 || len(params) == 0 {
		return false
	}
	var call ast.Expr
	switch s := stmts[0].(type) {
	case *ast.ExprStmt:
		call = s.X
	case *ast.ReturnStmt:
		if len(s.Results) != 1 {
			return false
		}
		call = s.Results[0]
		if u, ok := call.(*ast.UnaryExpr); ok && u.Op == token.AND {
			call = u.X // &wrapper{e2etest.X(…), t}
		}
		if cl, ok := call.(*ast.CompositeLit); ok && len(cl.Elts) > 0 {
			call = cl.Elts[0]
		}
	default:
		return false
	}
	c, ok := call.(*ast.CallExpr)
	if !ok || !(isE2E(c.Fun) || receiverCall(fn, c, wrappers)) {
		return false
	}
	var args []string
	for _, a := range c.Args {
		if isE2E(a) {
			continue
		}
		id, ok := a.(*ast.Ident)
		if !ok {
			return false // a default argument of its own: a helper, not a rename
		}
		args = append(args, id.Name)
	}
	if len(args) != len(params) {
		return false
	}
	for i := range args {
		if args[i] != params[i] {
			return false
		}
	}
	return true
}

// receiverCall says whether fn is a method of a wrapper type and c calls a
// method of fn's receiver.
func receiverCall(fn *ast.FuncDecl, c *ast.CallExpr, wrappers map[string]bool) bool {
	if fn.Recv == nil || len(fn.Recv.List) != 1 || len(fn.Recv.List[0].Names) != 1 {
		return false
	}
	rt := fn.Recv.List[0].Type
	if s, ok := rt.(*ast.StarExpr); ok {
		rt = s.X
	}
	id, ok := rt.(*ast.Ident)
	if !ok || !wrappers[id.Name] {
		return false
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == fn.Recv.List[0].Names[0].Name
}
