package runner

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// kindConsts reads the journal.Kind constants declared in dir's non-test
// files, name → value; a constant that is another package's kind
// (KindSteer = supervisor.KindSteer) takes its value from known.
func kindConsts(t *testing.T, dir string, known map[string]string) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				typed := false
				if sel, ok := vs.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Kind" {
					typed = true
				}
				for i, n := range vs.Names {
					if i >= len(vs.Values) {
						continue
					}
					switch v := vs.Values[i].(type) {
					case *ast.BasicLit:
						if typed {
							s, _ := strconv.Unquote(v.Value)
							out[n.Name] = s
						}
					case *ast.SelectorExpr:
						if val, ok := known[v.Sel.Name]; ok && strings.HasPrefix(v.Sel.Name, "Kind") {
							out[n.Name] = val
						}
					}
				}
			}
		}
	}
	return out
}

// Every kind this package declares has its entry in EventKinds, which
// says its payload and which views read it.
func TestEveryKindIsInTheTable(t *testing.T) {
	t.Parallel()
	sup := kindConsts(t, filepath.Join("..", "supervisor"), nil)
	kinds := kindConsts(t, ".", sup)
	if len(kinds) < 40 {
		t.Fatalf("found only %d kinds in the package: the scan is broken", len(kinds))
	}
	in := map[journal.Kind]bool{}
	for _, e := range EventKinds {
		in[e.Kind] = true
	}
	for name, v := range kinds {
		if !in[journal.Kind(v)] {
			t.Errorf("%s (%q) is not in EventKinds (events_table.go): give it its lane, payload and readers", name, v)
		}
	}
}

// tableEvent is an event of entry e whose text is unique to it, with its
// payload's data.
func tableEvent(t *testing.T, i int, e EventKind) journal.Event {
	t.Helper()
	ev := journal.Event{Seq: int64(i + 1), Time: time.Now(), Run: "r-table", Lane: e.Lane, Kind: e.Kind,
		Text: "table-event-" + strconv.Itoa(i) + " " + string(e.Kind)}
	if e.Payload != nil {
		b, err := json.Marshal(e.Payload)
		if err != nil {
			t.Fatalf("%s/%s: the payload does not encode: %v", e.Lane, e.Kind, err)
		}
		ev.Data = b
	}
	return ev
}

// The reports show every kind the table does not say they leave out, and
// leave out every kind it says they do.
func TestEventTableSaysWhatTheReportsShow(t *testing.T) {
	t.Parallel()
	for i, e := range EventKinds {
		ev := tableEvent(t, i, e)
		m := &Meta{ID: "r-table", Status: StatusRunning}
		all := renderProgress(m, []journal.Event{ev}, time.Now()) + renderDecisions(m, []journal.Event{ev}) + renderFinalReport(m, []journal.Event{ev}, nil)
		shown := strings.Contains(all, ev.Text)
		switch {
		case e.NotInReports == "" && !shown:
			t.Errorf("%s/%s: no report shows it (add a reader, or say why in NotInReports)", e.Lane, e.Kind)
		case e.NotInReports != "" && shown:
			t.Errorf("%s/%s: the table says the reports leave it out (%s), but they show it", e.Lane, e.Kind, e.NotInReports)
		}
	}
}
