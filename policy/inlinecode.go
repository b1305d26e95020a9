package policy

import (
	"path/filepath"
	"slices"
	"strings"
)

// Inline code as each interpreter reads its own arguments. `python3 -c
// CODE`, `python3 -cCODE`, `python3 -Bc CODE`, `perl -lne CODE`, `perl
// -e'CODE'`, `ruby -we CODE`, `node -pe CODE`, `node --eval=CODE` all carry
// CODE; every reader of interpreter inline code (the interpreter handler,
// the environment-dump check) asks inlineCodeOf, so a joined or clustered
// spelling is the same snippet as the spaced one.

// inlineSpec is how one interpreter spells its options.
type inlineSpec struct {
	code   string   // one-letter options whose value is code (joined or the next word)
	next   string   // one-letter options that take a value, joined or the next word
	joined string   // one-letter options whose value, if any, is the rest of the bundle only
	digits string   // one-letter options whose value, if any, is the digits that follow (perl -l, -0)
	stop   string   // one-letter options that take a value and end the interpreter's options (python -m)
	long   []string // long options whose value is code (--eval CODE, --eval=CODE)
	longV  []string // long options that take the next word as their value
	exact  bool     // options never bundle nor join (pwsh -Command CODE)
	sep    bool     // a code letter's value is always the next word: node -pe CODE is -p -e CODE
}

var inlineSpecs = lazy[map[string]inlineSpec]{build: func() map[string]inlineSpec {
	return map[string]inlineSpec{
		"python":     {code: "c", next: "WXQ", stop: "m"},
		"pypy":       {code: "c", next: "WXQ", stop: "m"},
		"perl":       {code: "eE", next: "IM", joined: "mxdDCiF", digits: "l0"},
		"ruby":       {code: "e", next: "IrCEF", joined: "xWi0TK", longV: []string{"--enable", "--disable", "--encoding", "--external-encoding", "--internal-encoding", "--dump"}},
		"node":       {code: "ep", next: "r", sep: true, long: []string{"--eval", "--print"}, longV: []string{"--require", "--import", "--loader", "--experimental-loader", "--input-type", "--title"}},
		"bun":        {code: "ep", next: "r", sep: true, long: []string{"--eval", "--print"}, longV: []string{"--preload", "--require"}},
		"php":        {code: "rBREF", next: "cdftz"},
		"lua":        {code: "e", next: "l"},
		"luajit":     {code: "e", next: "l"},
		"Rscript":    {code: "e", long: []string{"--expr"}},
		"R":          {code: "e", long: []string{"--expr"}},
		"julia":      {code: "eE", next: "pJCLt", joined: "Og", long: []string{"--eval", "--print"}},
		"osascript":  {code: "e", next: "ls"},
		"pwsh":       {long: pwshCode, longV: pwshValued, exact: true},
		"powershell": {long: pwshCode, longV: pwshValued, exact: true},
	}
}}

// interpBase names the interpreter a program is: python3.12 and pypy3 are
// python and pypy, nodejs is node.
func interpBase(prog string) string {
	base := filepath.Base(prog)
	if _, ok := inlineSpecs.get()[base]; ok {
		return base
	}
	trim := strings.TrimRight(base, "0123456789.")
	if trim == "nodejs" {
		return "node"
	}
	if _, ok := inlineSpecs.get()[trim]; ok {
		return trim
	}
	return base
}

// inlineCode is what an interpreter's arguments say about inline code.
type inlineArgs struct {
	code   string // the snippets, joined by newlines
	found  bool   // an option carries inline code
	static bool   // every snippet is known text (no expansion, no doubt how the options read)
}

// inlineCodeOf reads args (the words after the interpreter base names) as
// the interpreter does, up to its script operand or the end of its
// options, and returns the inline code they carry.
func inlineCodeOf(base string, args []word) inlineArgs {
	sp, ok := inlineSpecs.get()[base]
	if !ok {
		return inlineArgs{}
	}
	res := inlineArgs{static: true}
	var codes []string
	take := func(i int, joined string) int {
		res.found = true
		if joined != "" {
			codes = append(codes, joined)
			return i
		}
		if i+1 >= len(args) {
			return i
		}
		if !args[i+1].static {
			res.static = false
		}
		codes = append(codes, args[i+1].val)
		return i + 1
	}
	for i := 0; i < len(args); i++ {
		v := args[i].val
		if !strings.HasPrefix(v, "-") || v == "-" || v == "--" {
			break // the script operand, stdin, or the end of the options
		}
		if !args[i].static {
			if res.found {
				res.static = false
			}
			break
		}
		if sp.exact || strings.HasPrefix(v, "--") {
			name, val, eq := strings.Cut(v, "=")
			lname := name
			if sp.exact {
				lname = strings.ToLower(name)
			}
			if sp.exact {
				lname = pwshParam(lname) // -Comm is -Command, -exec is -ExecutionPolicy
			}
			switch {
			case slices.Contains(sp.long, lname) && eq:
				i = take(i, val)
				if val == "" {
					codes = append(codes, "")
				}
			case slices.Contains(sp.long, lname):
				i = take(i, "")
			case slices.Contains(sp.longV, lname) && !eq:
				i++
			}
			continue
		}
	bundle:
		for j := 1; j < len(v); j++ {
			ch := v[j]
			rest := v[j+1:]
			switch {
			case strings.IndexByte(sp.code, ch) >= 0 && sp.sep:
				// node reads -pe CODE as --print --eval CODE and
				// refuses -e'CODE'; a joined rest is judged too, as
				// the code it would be if some version took it.
				for r := rest; r != ""; r = r[1:] {
					codes = append(codes, r) // -pe'X' is judged as X and as eX
					if strings.IndexByte(sp.code, r[0]) < 0 {
						break
					}
				}
				i = take(i, "")
				break bundle
			case strings.IndexByte(sp.code, ch) >= 0:
				i = take(i, rest)
				break bundle
			case strings.IndexByte(sp.stop, ch) >= 0:
				res.code = strings.Join(codes, "\n")
				return res
			case strings.IndexByte(sp.next, ch) >= 0:
				if rest == "" {
					i++
				}
				break bundle
			case strings.IndexByte(sp.joined, ch) >= 0:
				if strings.ContainsAny(rest, sp.code) {
					// perl -pie CODE: -i takes "e" as its suffix and CODE
					// becomes the script's name; too easy to misread.
					res.found, res.static = true, false
				}
				break bundle
			case strings.IndexByte(sp.digits, ch) >= 0:
				hex := false
				for j+1 < len(v) && (v[j+1] >= '0' && v[j+1] <= '9' || ch == '0' && !hex && v[j+1] == 'x' || hex && strings.IndexByte("abcdefABCDEF", v[j+1]) >= 0) {
					hex = hex || v[j+1] == 'x'
					j++
				}
			}
		}
	}
	res.code = strings.Join(codes, "\n")
	return res
}
