package journal

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestNoStringLiteralKind reads every Go file of the module and fails on a
// string literal used as an event kind outside a const declaration: each
// emitting package declares its kinds as typed constants, and every emitter
// and reader uses those (see the package doc). Tests are not checked: a test
// that spells a kind as it is on disk pins the format that existing journals
// and a reader in another process rely on. The check reads the source with
// go/ast, so it knows a kind by where it stands:
//
//   - an argument in a Kind parameter's place of a function or func literal
//     declared in the module, or right after a lane (journal.Tool, …);
//   - the value of a Kind-typed field in a composite literal (Event{Kind: …},
//     an adapter's Line{Kind: …}, approvals.Report{Kind: …});
//   - a conversion journal.Kind("…");
//   - one side of ==, != or a switch case against ev.Kind / l.Kind (the
//     names every reader of events and adapter lines uses).
func TestNoStringLiteralKind(t *testing.T) {
	files := moduleFiles(t)
	k := collectKindSites(files)
	if len(k.funcs) == 0 || len(k.fields) == 0 {
		t.Fatalf("found no function or field taking a journal.Kind (funcs %v, fields %v): the check reads nothing", k.funcs, k.fields)
	}
	var bad []string
	for _, f := range files {
		bad = append(bad, k.literalKinds(f)...)
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		t.Errorf("%d string literal(s) used as an event kind; use the emitting package's typed constant:\n%s",
			len(bad), strings.Join(bad, "\n"))
	}
}

// TestTheKindCheckCatchesEachForm feeds the check one file with every form of
// a literal kind it must catch, and the forms it must let pass.
func TestTheKindCheckCatchesEachForm(t *testing.T) {
	src := `package x

import "github.com/sentinelhq/sentinel/internal/journal"

const KindGood journal.Kind = "good" // a declaration: fine

type Line struct {
	Lane journal.Lane
	Kind journal.Kind
}

func emit(lane journal.Lane, kind journal.Kind, text string) {}

func f(ev journal.Event, l Line, j *journal.Journal, p struct{ Kind string }) {
	emit(journal.System, "bad-arg", "t")
	_, _ = j.Append(journal.Tool, "bad-after-lane", "t", nil)
	mk := func(k journal.Kind) {}
	mk("bad-funclit")
	_ = journal.Event{Kind: "bad-field"}
	_ = Line{Lane: journal.Coder, Kind: "bad-line"}
	_ = journal.Kind("bad-conversion")
	_ = ev.Kind == "bad-compare"
	_ = "bad-compare-left" != l.Kind
	switch ev.Kind {
	case "bad-case":
	case KindGood:
	}
	emit(journal.System, KindGood, "a text literal is fine")
	_ = p.Kind == "not-an-event" // another Kind: not checked
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	own, err := parser.ParseFile(fset, "journal.go", nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	files := []parsedFile{{fset: fset, file: f, pkg: "x", dir: "x"}, {fset: fset, file: own, pkg: "journal", dir: "."}}
	k := collectKindSites(files)
	got := strings.Join(k.literalKinds(files[0]), "\n")
	for _, want := range []string{"bad-arg", "bad-after-lane", "bad-funclit", "bad-field", "bad-line",
		"bad-conversion", "bad-compare", "bad-compare-left", "bad-case"} {
		if !strings.Contains(got, strconv.Quote(want)) {
			t.Errorf("the check missed %q; it reported:\n%s", want, got)
		}
	}
	for _, fine := range []string{"good", "a text literal is fine", "not-an-event"} {
		if strings.Contains(got, strconv.Quote(fine)) {
			t.Errorf("the check reported %q, which is not a literal kind:\n%s", fine, got)
		}
	}
}

type parsedFile struct {
	fset *token.FileSet
	file *ast.File
	pkg  string // the package clause's name
	dir  string // the package's directory
}

// moduleFiles parses every .go file under the module root.
func moduleFiles(t *testing.T) []parsedFile {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root %s: %v", root, err)
	}
	fset := token.NewFileSet()
	var out []parsedFile
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		out = append(out, parsedFile{fset: fset, file: f, pkg: f.Name.Name, dir: filepath.Dir(path)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// kindSites is where a kind stands in the module's declarations.
type kindSites struct {
	funcs  map[string][]kindFunc      // function name → its declarations with Kind parameters
	fields map[string]map[string]bool // struct type name → its Kind-typed fields
}

// kindFunc is a function (or func literal, or func-typed field) with Kind
// parameters. An unexported one is called only inside its package.
type kindFunc struct {
	dir      string // "" for an exported name
	params   int
	variadic bool
	kinds    []int // indices of the Kind parameters
}

// matching is the declaration a call to name with n arguments in dir is to.
func (k kindSites) matching(name, dir string, n int) *kindFunc {
	for i, f := range k.funcs[name] {
		if (f.dir == "" || f.dir == dir) && (n == f.params || f.variadic && n >= f.params-1) {
			return &k.funcs[name][i]
		}
	}
	return nil
}

// isKindType reports whether e spells journal.Kind (or Kind inside package journal).
func isKindType(e ast.Expr, pkg string) bool {
	switch t := e.(type) {
	case *ast.SelectorExpr:
		x, ok := t.X.(*ast.Ident)
		return ok && x.Name == "journal" && t.Sel.Name == "Kind"
	case *ast.Ident:
		return pkg == "journal" && t.Name == "Kind"
	}
	return false
}

func kindParams(ft *ast.FuncType, pkg string) kindFunc {
	var f kindFunc
	for _, p := range ft.Params.List {
		n := max(len(p.Names), 1)
		for range n {
			if isKindType(p.Type, pkg) {
				f.kinds = append(f.kinds, f.params)
			}
			f.params++
		}
		_, f.variadic = p.Type.(*ast.Ellipsis)
	}
	return f
}

func collectKindSites(files []parsedFile) kindSites {
	k := kindSites{funcs: map[string][]kindFunc{}, fields: map[string]map[string]bool{}}
	var pf parsedFile
	addFunc := func(name string, ft *ast.FuncType, pkg string) {
		f := kindParams(ft, pkg)
		if len(f.kinds) == 0 {
			return
		}
		if !ast.IsExported(name) {
			f.dir = pf.dir
		}
		k.funcs[name] = append(k.funcs[name], f)
	}
	for _, pf = range files {
		ast.Inspect(pf.file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				addFunc(n.Name.Name, n.Type, pf.pkg)
			case *ast.AssignStmt:
				for i, rhs := range n.Rhs {
					if fl, ok := rhs.(*ast.FuncLit); ok && i < len(n.Lhs) {
						if id, ok := n.Lhs[i].(*ast.Ident); ok {
							addFunc(id.Name, fl.Type, pf.pkg)
						}
					}
				}
			case *ast.TypeSpec:
				st, ok := n.Type.(*ast.StructType)
				if !ok {
					return true
				}
				for _, fld := range st.Fields.List {
					if ft, ok := fld.Type.(*ast.FuncType); ok {
						for _, name := range fld.Names {
							addFunc(name.Name, ft, pf.pkg)
						}
					}
					if !isKindType(fld.Type, pf.pkg) {
						continue
					}
					if k.fields[n.Name.Name] == nil {
						k.fields[n.Name.Name] = map[string]bool{}
					}
					for _, name := range fld.Names {
						k.fields[n.Name.Name][name.Name] = true
					}
				}
			}
			return true
		})
	}
	return k
}

// eventNames are the names readers give an event or an adapter line; a
// comparison of their Kind with a literal is a literal kind.
var eventNames = map[string]bool{"ev": true, "e": true, "event": true, "l": true, "line": true}

func isEventKind(e ast.Expr) bool {
	s, ok := e.(*ast.SelectorExpr)
	if !ok || s.Sel.Name != "Kind" {
		return false
	}
	x, ok := s.X.(*ast.Ident)
	return ok && eventNames[x.Name]
}

func isLane(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.SelectorExpr:
		id, ok := x.X.(*ast.Ident)
		return ok && id.Name == "journal" && (Lane(strings.ToLower(x.Sel.Name)).Valid())
	case *ast.CallExpr: // journal.Lane(s)
		if s, ok := x.Fun.(*ast.SelectorExpr); ok {
			id, ok := s.X.(*ast.Ident)
			return ok && id.Name == "journal" && s.Sel.Name == "Lane"
		}
	}
	return false
}

func stringLit(e ast.Expr) (*ast.BasicLit, bool) {
	if p, ok := e.(*ast.ParenExpr); ok {
		e = p.X
	}
	b, ok := e.(*ast.BasicLit)
	return b, ok && b.Kind == token.STRING
}

func typeName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.SelectorExpr:
		return t.Sel.Name
	}
	return ""
}

func calleeName(e ast.Expr) string {
	switch f := e.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

// literalKinds lists the literal kinds in one file as "file:line: "kind" (form)".
func (k kindSites) literalKinds(pf parsedFile) []string {
	var bad []string
	report := func(lit *ast.BasicLit, form string) {
		p := pf.fset.Position(lit.Pos())
		bad = append(bad, fmt.Sprintf("%s:%d: %s (%s)", p.Filename, p.Line, lit.Value, form))
	}
	var walk func(n ast.Node) bool
	walk = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GenDecl:
			return n.Tok != token.CONST // a const declaration is where kinds are spelled
		case *ast.CallExpr:
			if isKindType(n.Fun, pf.pkg) && len(n.Args) == 1 {
				if lit, ok := stringLit(n.Args[0]); ok {
					report(lit, "conversion")
				}
			}
			seen := map[int]bool{}
			var kinds []int
			if f := k.matching(calleeName(n.Fun), pf.dir, len(n.Args)); f != nil {
				kinds = f.kinds
			}
			for _, i := range kinds {
				if i < len(n.Args) {
					if lit, ok := stringLit(n.Args[i]); ok {
						report(lit, "argument")
						seen[i] = true
					}
				}
			}
			for i := 1; i < len(n.Args); i++ {
				if lit, ok := stringLit(n.Args[i]); ok && !seen[i] && isLane(n.Args[i-1]) {
					report(lit, "after a lane")
				}
			}
		case *ast.CompositeLit:
			fields := k.fields[typeName(n.Type)]
			for _, el := range n.Elts {
				kv, ok := el.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				if key, ok := kv.Key.(*ast.Ident); ok && fields[key.Name] {
					if lit, ok := stringLit(kv.Value); ok {
						report(lit, "field "+key.Name)
					}
				}
			}
		case *ast.BinaryExpr:
			if n.Op != token.EQL && n.Op != token.NEQ {
				return true
			}
			if lit, ok := stringLit(n.Y); ok && isEventKind(n.X) {
				report(lit, "comparison")
			}
			if lit, ok := stringLit(n.X); ok && isEventKind(n.Y) {
				report(lit, "comparison")
			}
		case *ast.SwitchStmt:
			if n.Tag == nil || !isEventKind(n.Tag) {
				return true
			}
			for _, st := range n.Body.List {
				for _, e := range st.(*ast.CaseClause).List {
					if lit, ok := stringLit(e); ok {
						report(lit, "case")
					}
				}
			}
		}
		return true
	}
	ast.Inspect(pf.file, walk)
	return bad
}
