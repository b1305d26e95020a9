package policy

import (
	_ "embed"
	"strings"
)

// getopt reads a bundle of short options as the options one by one:
// `sort -uo /etc/x` is `sort -u -o /etc/x`, `cp -vt/etc x` is
// `cp -v -t /etc x`. Handlers look for the option on its own or with its
// value attached, so every bundle of a program with a table in
// shortopts.txt is split before any handler sees it: flags one word each,
// an option that takes a value followed by its value as the next word
// (an optional value stays attached, as getopt reads it). A bundle with a
// letter the table does not know is left as it is written.

//go:embed shortopts.txt
var shortOptsText string

type shortTable struct{ flags, args, optional string }

var shortOpts = lazy[map[string]shortTable]{build: func() map[string]shortTable {
	m := map[string]shortTable{}
	for _, l := range strings.Split(shortOptsText, "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		prog, spec, ok := strings.Cut(l, "\t")
		if !ok {
			panic("policy/shortopts.txt: line without a tab: " + l)
		}
		var t shortTable
		for _, f := range strings.Fields(spec) {
			k, v, _ := strings.Cut(f, "=")
			switch k {
			case "flags":
				t.flags = v
			case "args":
				t.args = v
			case "optional":
				t.optional = v
			default:
				panic("policy/shortopts.txt: unknown field " + k)
			}
		}
		m[prog] = t
	}
	return m
}}

// splitShortBundle splits one bundle, or reports false to leave it alone.
func (t shortTable) split(a word) ([]word, bool) {
	v := a.val
	if len(v) < 3 || v[0] != '-' || v[1] == '-' || !a.static || a.procSubst {
		return nil, false
	}
	var out []word
	for i := 1; i < len(v); i++ {
		c := v[i]
		switch {
		case strings.IndexByte(t.args, c) >= 0:
			out = append(out, word{val: "-" + string(c), static: true})
			if rest := v[i+1:]; rest != "" {
				out = append(out, word{val: rest, static: true, tilde: a.tilde})
			}
			return out, true
		case strings.IndexByte(t.optional, c) >= 0:
			return append(out, word{val: "-" + v[i:], static: true}), true
		case strings.IndexByte(t.flags, c) >= 0:
			out = append(out, word{val: "-" + string(c), static: true})
		default:
			return nil, false // a letter the table does not know
		}
	}
	return out, true
}

// expandShortOpts splits the bundles of args[0]'s table; it returns args
// itself when nothing changed.
// The part's argv stays as typed: the reader (approvals, the MCP
// allowlist) and user rules see the line's own words.
func (x *cmdCtx) expandShortOpts(args []word) []word {
	t, ok := shortOpts.get()[args[0].val]
	if !ok {
		return args
	}
	var out []word
	for i, a := range args {
		if i == 0 {
			continue
		}
		if a.val == "--" && a.static {
			if out != nil {
				out = append(out, args[i:]...)
			}
			break
		}
		parts, ok := t.split(a)
		if ok && out == nil {
			out = append([]word(nil), args[:i]...)
		}
		switch {
		case ok:
			out = append(out, parts...)
		case out != nil:
			out = append(out, a)
		}
	}
	if out == nil {
		return args
	}
	return out
}
