package policy

import (
	_ "embed"
	"sort"
	"strings"
)

// GNU getopt_long, argp (tar) and git's parse-options take any unique
// prefix of a long option: `git push --force-w` is --force-with-lease,
// `sort --compress-p=/bin/sh` is --compress-program, `wc --files0=F` is
// --files0-from. Handlers compare option names exactly, so every command
// whose program has a table in longopts.txt has its long options written
// out in full before any handler (or user rule) sees them: one mechanism,
// one table, for every handler. A prefix of several options is an error to
// the program, but the policy does not lean on that: it asks.
//
// longopts.txt was generated from the programs' own --help and from
// `git <cmd> --git-completion-helper-all`; an option newer than the table
// is left as it is written and judged by the handler as an option it does
// not know.

// RuleOptionAmbiguous: a long option abbreviated so that it names several.
const RuleOptionAmbiguous = "option.ambiguous-abbreviation"

//go:embed longopts.txt
var longOptsText string

// longOpts maps a program ("sort") or a git subcommand ("git push") to its
// long options without the leading "--", sorted.
var longOpts = lazy[map[string][]string]{build: func() map[string][]string {
	m := map[string][]string{}
	for _, l := range strings.Split(longOptsText, "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		key, opts, ok := strings.Cut(l, "\t")
		if !ok {
			panic("policy/longopts.txt: line without a tab: " + l)
		}
		var names []string
		for _, o := range strings.Fields(opts) {
			names = append(names, strings.TrimPrefix(o, "--"))
		}
		sort.Strings(names)
		m[key] = names
	}
	return m
}}

// gitGlobalWithValue are git's global options that take the next word.
var gitGlobalWithValue = lazy[map[string]bool]{build: func() map[string]bool {
	return setOf("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--list-cmds", "--attr-source")
}}

// expandLongOpts writes out the abbreviated long options of args[0]'s
// table in full for the handlers. It returns args itself when nothing
// changed. The part's argv stays as typed: the reader (approvals, the MCP
// allowlist) and user rules see the line's own words.
func (x *cmdCtx) expandLongOpts(args []word) []word {
	key, from := args[0].val, 1
	if key == "git" {
		sub := 1
		for sub < len(args) && strings.HasPrefix(args[sub].val, "-") {
			if gitGlobalWithValue.get()[args[sub].val] {
				sub++
			}
			sub++
		}
		if sub >= len(args) {
			return args
		}
		key, from = "git "+args[sub].val, sub+1
	}
	table := longOpts.get()[key]
	if len(table) == 0 && key == args[0].val {
		// ./gradlew is gradle, /usr/bin/pip is pip
		key = unseenProgram(key)
		table = longOpts.get()[key]
	}
	if len(table) == 0 {
		return args
	}
	// A wrapper's options end at the command it runs: `timeout 60 rg
	// --pre X` is rg's --pre, never timeout's --preserve-status.
	_, isWrapper := wrapKinds.get()[args[0].val]
	var extra []string
	switch key {
	case "git log", "git show", "git whatchanged", "git format-patch", "git reflog", "git stash":
		extra = longOpts.get()["git diff"] // they take every diff option: --textcon is --textconv
	}
	out := args
	for i := from; i < len(args); i++ {
		a := args[i]
		if a.val == "--" || isWrapper && !strings.HasPrefix(a.val, "-") {
			break
		}
		if extra != nil && strings.HasPrefix(a.val, "--") && len(a.val) > 2 {
			name, _, _ := strings.Cut(a.val[2:], "=")
			if _, n := resolveLongOpt(table, name); n == 0 {
				if full, m := resolveLongOpt(extra, name); m == 1 && full != name {
					if &out[0] == &args[0] {
						out = append([]word(nil), args...)
					}
					w := a
					w.val = "--" + full + strings.TrimPrefix(a.val, "--"+name)
					out[i] = w
					continue
				} else if m > 1 {
					x.add(Ask, RuleOptionAmbiguous, key+" --"+name+" abbreviates several options ("+strings.Join(candidates(extra, name, 4), ", ")+")")
					continue
				}
			}
		}
		if !strings.HasPrefix(a.val, "--") || len(a.val) == 2 || a.procSubst {
			continue
		}
		name, val, hasVal := strings.Cut(a.val[2:], "=")
		full, n := resolveLongOpt(table, name)
		switch {
		case n == 1 && full != name:
			if &out[0] == &args[0] {
				out = append([]word(nil), args...)
			}
			w := a
			w.val = "--" + full
			if hasVal {
				w.val += "=" + val
			}
			out[i] = w
		case n > 1:
			x.ambiguousLongOpt(key, out, i, name, val, hasVal, candidates(table, name, 9)) // ambiguousopts.go
		}
	}
	return out
}

// resolveLongOpt finds name in table: itself when it is an option, else
// the one option it is a prefix of. n is how many options it may be (0:
// none, 1: full is the option, more: ambiguous).
func resolveLongOpt(table []string, name string) (full string, n int) {
	i := sort.SearchStrings(table, name)
	if i < len(table) && table[i] == name {
		return name, 1
	}
	for j := i; j < len(table) && strings.HasPrefix(table[j], name); j++ {
		if n == 0 {
			full = table[j]
		}
		n++
	}
	return full, n
}

func candidates(table []string, name string, max int) []string {
	var out []string
	i := sort.SearchStrings(table, name)
	for j := i; j < len(table) && strings.HasPrefix(table[j], name) && len(out) < max; j++ {
		out = append(out, "--"+table[j])
	}
	return out
}
