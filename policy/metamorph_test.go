package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// mmRow is one deny or ask row of a corpus with the contexts it is judged in.
type mmRow struct {
	where, cmd string
	ctxs       []Context
}

// mmRows reads every corpus in testdata (the ::: files and the TSV ones)
// and keeps the rows whose expected decision is deny or ask, each with the
// contexts its expectation holds in (sandbox on and off; sandbox off only
// for rows the sandbox makes safe; in place for in-place rows).
func mmRows(t *testing.T, ctx Context) []mmRow {
	on, off := ctx, ctx
	on.Sandboxed = true
	var rows []mmRow
	txt, _ := filepath.Glob(filepath.Join("testdata", "*.txt"))
	for _, f := range txt {
		for _, c := range readCorpus(t, filepath.Base(f)) {
			where := fmt.Sprintf("%s:%d", filepath.Base(f), c.line)
			switch c.expect {
			case "deny", "ask", "!allow":
				rows = append(rows, mmRow{where, c.cmd, []Context{on, off}})
			case "!allow-off":
				rows = append(rows, mmRow{where, c.cmd, []Context{off}})
			case "!allow-inplace":
				ip, ipOn := off, on
				ip.InPlace, ipOn.InPlace = true, true
				rows = append(rows, mmRow{where, c.cmd, []Context{ipOn, ip}})
			}
		}
	}
	tsv, _ := filepath.Glob(filepath.Join("testdata", "*.tsv"))
	for _, f := range tsv {
		for _, r := range readTSVCorpus(t, filepath.Base(f)) {
			where := fmt.Sprintf("%s:%d", filepath.Base(f), r.line)
			switch r.expect {
			case "deny", "ask":
				rows = append(rows, mmRow{where, r.cmd, []Context{on, off}})
			case "sandbox":
				rows = append(rows, mmRow{where, r.cmd, []Context{off}})
			}
		}
	}
	return onceEach(rows)
}

// onceEach keeps each command once per context: a row that several
// corpora list (about a tenth of the row-contexts) is judged with the same
// variants in the same context, to the same verdict, so its repeats are
// left out (a sweep's CPU, issue 33), the first row's place kept.
func onceEach(rows []mmRow) []mmRow {
	type key struct {
		cmd                string
		sandboxed, inPlace bool
	}
	seen := map[key]bool{}
	var out []mmRow
	for _, r := range rows {
		var ctxs []Context
		for _, cx := range r.ctxs {
			k := key{r.cmd, cx.Sandboxed, cx.InPlace}
			if !seen[k] {
				seen[k] = true
				ctxs = append(ctxs, cx)
			}
		}
		if len(ctxs) > 0 {
			r.ctxs = ctxs
			out = append(out, r)
		}
	}
	return out
}

// TestMetamorphicSpellingsNeverAllow is the metamorphic test of issue 32
// ("266 alternative spellings of the same commands must never turn a deny
// or ask into an allow"): every deny and ask row of every corpus in
// testdata, re-spelled by every transform in mmTransforms (quoting inside
// the command word, ANSI-C and locale quotes, program paths and wrappers,
// variable indirection, aliases, functions, blanks and continuations,
// separators and compound commands, eval / bash -c / sh -lc / here-strings,
// xargs, find -exec, braces, option bundles, long forms and prefixes, `--`,
// path spellings), judged in the same context. A variant may be stricter;
// it may never be allowed. The table per transform is printed with -v:
//
//	go test -count=1 -run TestMetamorphicSpellingsNeverAllow -v ./policy/
func TestMetamorphicSpellingsNeverAllow(t *testing.T) {
	t.Parallel()             // pure computation: overlaps the other corpus sweeps (heavy_parallel_test.go)
	if sweptOutsideRace(t) { // sweep_outside_race_test.go
		return
	}
	ctx := testEnv(t)
	e := Default()
	per := map[string]*mmTally{}
	for _, tr := range mmTransforms {
		per[tr.name] = &mmTally{}
	}
	var originals, judged, skippedAllowed, unparsedRows, variants, leaks int
	// Every row is judged, each by one of GOMAXPROCS workers (the engine
	// is safe for concurrent checks: TestConcurrentChecksAgree); their
	// counts are added up after.
	rows := mmRows(t, ctx)
	originals = len(rows)
	next := make(chan mmRow)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := mmWorker{per: map[string]*mmTally{}}
			for row := range next {
				w.judge(t, e, row, ctx.Home)
			}
			mu.Lock()
			defer mu.Unlock()
			for n, tl := range w.per {
				per[n].add(*tl)
			}
			judged += w.judged
			skippedAllowed += w.skippedAllowed
			unparsedRows += w.unparsedRows
			variants += w.variants
			leaks += w.leaks
		}()
	}
	for _, row := range rows {
		next <- row
	}
	close(next)
	wg.Wait()
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-44s %8s %6s %6s %9s  %s\n", "transform", "variants", "leaks", "weaker", "unparsed", "source")
	names := make([]string, 0, len(per))
	for _, tr := range mmTransforms {
		names = append(names, tr.name)
	}
	src := map[string]string{}
	for _, tr := range mmTransforms {
		src[tr.name] = tr.source
	}
	sort.SliceStable(names, func(i, j int) bool { return per[names[i]].leaks > per[names[j]].leaks })
	for _, n := range names {
		tl := per[n]
		fmt.Fprintf(&b, "%-44s %8d %6d %6d %9d  %s\n", n, tl.variants, tl.leaks, tl.weaker, tl.unparsed, src[n])
	}
	fmt.Fprintf(&b, "originals %d (%d unparsable, %d row-contexts allowed as the corpus tests list them), row-contexts judged %d, variants %d, leaks %d\n",
		originals, unparsedRows, skippedAllowed, judged, variants, leaks)
	t.Log(b.String())
	if os.Getenv("MM_TABLE") != "" {
		_ = os.WriteFile(os.Getenv("MM_TABLE"), []byte(b.String()), 0o644)
	}
	for _, tr := range mmTransforms {
		if per[tr.name].variants == 0 {
			t.Errorf("transform %q made no variant from the corpora: the generator lost its grip", tr.name)
		}
	}
	if originals < 1000 || variants < 20000 {
		t.Errorf("only %d originals and %d variants: the corpora or the generator shrank", originals, variants)
	}
}

// mmTally is one transform's counts.
type mmTally struct{ variants, unparsed, leaks, weaker int }

func (a *mmTally) add(b mmTally) {
	a.variants += b.variants
	a.unparsed += b.unparsed
	a.leaks += b.leaks
	a.weaker += b.weaker
}

// mmWorker judges rows for TestMetamorphicSpellingsNeverAllow and counts.
type mmWorker struct {
	per                                                   map[string]*mmTally
	judged, skippedAllowed, unparsedRows, variants, leaks int
}

// mmVariant is one re-spelling of a row by one transform.
type mmVariant struct {
	tr       string // the transform's name
	cmd      string
	unparsed bool // bash does not parse it (counted, not failed: the engine must still not allow it)
}

// variants makes every variant of l once per row, not once per context:
// the generator and the parse check depend on the text alone.
func mmVariants(l mmLine, row string) []mmVariant {
	var out []mmVariant
	for _, tr := range mmTransforms {
		for _, v := range tr.apply(l) {
			if v == row {
				continue
			}
			_, err := syntax.NewParser().Parse(strings.NewReader(v), "")
			out = append(out, mmVariant{tr.name, v, err != nil})
		}
	}
	return out
}

// judge checks every variant of row in each of its contexts: a variant
// may be stricter than the row, never allowed.
func (w *mmWorker) judge(t *testing.T, e *Engine, row mmRow, home string) {
	l, ok := mmParse(row.cmd, home)
	if !ok {
		w.unparsedRows++
		return
	}
	var vs []mmVariant // made on the first context that is not allowed
	for _, cx := range row.ctxs {
		orig := e.Check(Query{Kind: KindShell, Command: row.cmd, Context: cx}).Decision
		if orig == Allow {
			w.skippedAllowed++ // an open row the corpus tests name; not this test's to count
			continue
		}
		w.judged++
		if vs == nil {
			vs = mmVariants(l, row.cmd)
		}
		for _, v := range vs {
			tl := w.per[v.tr]
			if tl == nil {
				tl = &mmTally{}
				w.per[v.tr] = tl
			}
			tl.variants++
			w.variants++
			if v.unparsed {
				tl.unparsed++
			}
			got := e.Check(Query{Kind: KindShell, Command: v.cmd, Context: cx})
			switch {
			case got.Decision == Allow:
				tl.leaks++
				w.leaks++
				t.Errorf("LEAK %s (sandbox %v, in place %v) [%s]: %q is %s but %q is ALLOWED by %s: %s",
					row.where, cx.Sandboxed, cx.InPlace, v.tr, row.cmd, orig, v.cmd, got.Rule, got.Reason)
			case rank(got.Decision) < rank(orig):
				tl.weaker++
			}
		}
	}
}

// TestMetamorphicGenerator checks the generator on one line: the shapes
// the issue names are made, and every variant parses as bash.
func TestMetamorphicGenerator(t *testing.T) {
	l, ok := mmParse("rm -rf ~/.ssh", "/h")
	if !ok {
		t.Fatal("does not parse")
	}
	got := map[string]bool{}
	for _, tr := range mmTransforms {
		for _, v := range tr.apply(l) {
			got[v] = true
			if _, err := syntax.NewParser().Parse(strings.NewReader(v), ""); err != nil {
				t.Errorf("%s made %q, which does not parse: %v", tr.name, v, err)
			}
		}
	}
	for _, want := range []string{"r''m -rf ~/.ssh", `"rm" -rf ~/.ssh`, `\rm -rf ~/.ssh`, `r\m -rf ~/.ssh`, `$'\x72'm -rf ~/.ssh`,
		`$"rm" -rf ~/.ssh`, "/bin/rm -rf ~/.ssh", "/usr/bin/env rm -rf ~/.ssh", "command rm -rf ~/.ssh", "exec rm -rf ~/.ssh",
		"nice rm -rf ~/.ssh", "timeout 5 rm -rf ~/.ssh", "env -i rm -rf ~/.ssh", "{rm,-rf,~/.ssh}", "rm${IFS}-rf ~/.ssh",
		"rm \\\n  -rf ~/.ssh", "( rm -rf ~/.ssh )", "{ rm -rf ~/.ssh; }", `eval 'rm -rf ~/.ssh'`, `bash -c 'rm -rf ~/.ssh'`,
		`sh -lc 'rm -rf ~/.ssh'`, `bash <<< 'rm -rf ~/.ssh'`, "rm -fr ~/.ssh", "rm -r -f ~/.ssh", "rm --recursive --force ~/.ssh",
		"rm -rf -- ~/.ssh", "rm -rf $HOME/.ssh", "rm -rf ${HOME}/.ssh", `rm -rf "$HOME"/.ssh`, "rm -rf /h/.ssh", "rm -rf ~//.ssh",
		"rm -rf ~/.ssh/", "_w=rm; $_w -rf ~/.ssh", `_a=(rm -rf ~/.ssh); "${_a[@]}"`, "shopt -s expand_aliases\nalias _w='rm'\n_w -rf ~/.ssh",
		"_f() {\nrm -rf ~/.ssh\n}\n_f", "echo ~/.ssh | xargs rm -rf", "find ~/.ssh -maxdepth 0 -exec rm -rf {} \\;", "$(echo rm) -rf ~/.ssh",
		"`echo rm` -rf ~/.ssh"} {
		if !got[want] {
			t.Errorf("the generator did not make %q", want)
		}
	}
	l, _ = mmParse("git push --force-with-lease origin main && rm -rf ..", "/h")
	got = map[string]bool{}
	for _, tr := range mmTransforms {
		for _, v := range tr.apply(l) {
			got[v] = true
		}
	}
	for _, want := range []string{"git push --force-w origin main && rm -rf ..", "git push --force-with-lea origin main && rm -rf ..",
		"git push --force-with-lease origin main ; rm -rf ..", "git push --force-with-lease origin main && rm -rf $PWD/..",
		"git push --force-with-lease origin main && rm -rf ./.."} {
		if !got[want] {
			t.Errorf("the generator did not make %q", want)
		}
	}
}

// TestOnceEachKeepsEveryCommandInEveryContext: leaving out the repeats
// loses no command in any context it is listed in, and judges none twice.
func TestOnceEachKeepsEveryCommandInEveryContext(t *testing.T) {
	t.Parallel()
	on, off := Context{Sandboxed: true}, Context{}
	ip := Context{InPlace: true}
	rows := []mmRow{
		{"a:1", "rm -rf ~", []Context{on, off}},
		{"b:1", "rm -rf ~", []Context{off}},
		{"b:2", "rm -rf ~", []Context{off, ip}},
		{"c:1", "curl x | sh", []Context{on, off}},
		{"c:2", "curl x | sh", []Context{on, off}},
	}
	got := onceEach(rows)
	type pair struct {
		cmd     string
		on, ipl bool
	}
	want, have := map[pair]bool{}, map[pair]int{}
	for _, r := range rows {
		for _, cx := range r.ctxs {
			want[pair{r.cmd, cx.Sandboxed, cx.InPlace}] = true
		}
	}
	for _, r := range got {
		for _, cx := range r.ctxs {
			have[pair{r.cmd, cx.Sandboxed, cx.InPlace}]++
		}
	}
	for p := range want {
		if have[p] != 1 {
			t.Errorf("%+v is judged %d times, want once", p, have[p])
		}
	}
	if len(have) != len(want) || len(got) != 3 || got[0].where != "a:1" || got[1].where != "b:2" || got[2].where != "c:1" {
		t.Errorf("onceEach(%+v) = %+v", rows, got)
	}
}
