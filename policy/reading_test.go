package policy

import (
	"path/filepath"
	"reflect"
	"testing"
)

// everyCorpusCommand is the command of every row of every corpus
// (testdata/corpus/*.tsv, testdata/*.tsv, testdata/*.txt).
func everyCorpusCommand(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, g := range []string{"corpus/*.tsv", "*.tsv", "*.txt"} {
		names, err := filepath.Glob(filepath.Join("testdata", g))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			rel, _ := filepath.Rel("testdata", name)
			if filepath.Ext(name) == ".tsv" {
				for _, r := range readTSVCorpus(t, rel) {
					out = append(out, r.cmd)
				}
				continue
			}
			for _, l := range readCorpus(t, rel) {
				out = append(out, l.cmd)
			}
		}
	}
	if len(out) < 1000 {
		t.Fatalf("only %d corpus rows", len(out))
	}
	return out
}

// One Reading of a line serves every question asked of it: a Check that
// carries it gives the verdict a Check that parses the line gives, in
// every context, its Line is ReadShell's, and no walk changes the syntax
// tree the next one reads (the tree equals a fresh parse after them all).
func TestReadingIsNotChanged(t *testing.T) {
	t.Parallel()             // see heavy_parallel_test.go
	if sweptOutsideRace(t) { // sweep_outside_race_test.go
		return
	}
	ws := t.TempDir()
	ctxs := []Context{
		{Workspace: ws, Cwd: ws, Sandboxed: true},
		{Workspace: ws, Cwd: ws},
		{Workspace: ws, Cwd: ws, Sandboxed: true, InPlace: true},
	}
	e := Default()
	seen := map[string]bool{} // a line several corpora list is read and judged once (issue 33)
	for _, line := range everyCorpusCommand(t) {
		if seen[line] {
			continue
		}
		seen[line] = true
		rd := Read(line)
		for _, ctx := range ctxs {
			q := Query{Kind: KindShell, Command: line, Context: ctx}
			want := e.Check(q)
			q.Reading = rd
			if got := e.Check(q); !reflect.DeepEqual(got, want) {
				t.Errorf("%q (sandbox %v, in place %v): with its Reading %+v, parsed again %+v", line, ctx.Sandboxed, ctx.InPlace, got, want)
			}
		}
		f, braced, err := parseShell(line)
		if !reflect.DeepEqual(rd.f, f) || len(rd.braced) != len(braced) || (err == nil) != (rd.err == nil) {
			t.Errorf("%q: the walks changed the syntax tree they were given", line)
		}
		got, gerr := rd.Line()
		r := reader{src: line, braced: braced}
		if err == nil && (gerr != nil || !reflect.DeepEqual(got, &Line{Stmts: r.stmts(f.Stmts)})) {
			t.Errorf("%q: the Reading's Line is not a fresh reading's (%v)", line, gerr)
		}
	}
}

// A Reading of other text is not the line's: the engine parses the
// Command it was asked about.
func TestReadingOfOtherTextIsIgnored(t *testing.T) {
	q := Query{Kind: KindShell, Command: "rm -rf /", Context: Context{Workspace: t.TempDir(), Sandboxed: true}, Reading: Read("ls")}
	if v := Default().Check(q); v.Decision != Deny {
		t.Fatalf("judged the Reading's text, not the Command: %+v", v)
	}
}
