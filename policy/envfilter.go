package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Filters on the environment's listing, judged by what they can show.
// Inside the sandbox the listing holds the agent's own keys (its PassEnv:
// ANTHROPIC_API_KEY, OPENAI_API_KEY, …) and whatever the profile adds, so
// a stage that picks lines out of it is a search for something, and a
// search is allowed only when it provably cannot show the value of a
// secret-looking variable:
//
//   - a stage that passes the listing on whole (sort, head, less, cat)
//     shows what the bare listing shows, which is allowed;
//   - a stage that drops every value (cut -d= -f1, wc, grep -c/-q/-l)
//     shows none;
//   - a grep/rg that keeps lines must name each variable completely and
//     at the start of the line (`^GOPATH=`, `^(GOROOT|GOFLAGS)=`, or
//     `-w ^GOPATH`), and no name it keeps may look like a secret's;
//   - anything else (an unanchored pattern, which also matches values;
//     a prefix `^NODE_`, which keeps NODE_AUTH_TOKEN; -v, which keeps all
//     but a few; awk, sed, a pattern file) asks.
//
// Judging the names a filter spells (`grep -i token`) missed DATABASE_URL,
// SLACK_WEBHOOK and SENTRY_DSN; judging what the filter can keep does not.

// passStages pass their input on whole, reordered or cut short.
var passStages = wordSet{words: []string{"sort", "uniq", "head", "tail", "less", "more", "cat", "column", "nl", "fold", "fmt", "pr"}}

// secretNameParts are the parts of a variable name that mark a secret.
var secretNameParts = []string{"key", "token", "secret", "pass", "pwd", "cred", "auth", "cookie", "session", "private",
	"dsn", "webhook", "url", "uri", "conn", "access", "cert", "sign", "salt", "api", "jwt", "bearer", "otp", "login", "user"}

// secretLookingName reports a variable name that may hold a secret.
func secretLookingName(n string) bool {
	l := strings.ToLower(n)
	for _, p := range secretNameParts {
		if strings.Contains(l, p) {
			return true
		}
	}
	return false
}

// The stages after a listing hide every secret-looking variable's value
// when at least one stage filters (counts, keeps names only, keeps named
// non-secret lines); stages that pass the listing on whole (sort, head)
// filter nothing, and the listing they pass on holds the agent's own keys.
// screenPipe (envscreen.go) reads every stage once with filterStage.

// What a stage after a listing does with it (filterStage).
const (
	stageEnds       = iota // decides: hides every secret or may show one
	stagePasses            // passes the listing on whole (sort, head)
	stageKeepsNamed        // keeps only named non-secret variables' lines
)

// filterStage judges one stage after a listing: whether it passes the
// listing on, keeps only named lines, or decides (hides every secret's
// value, or may show one).
func (c *checkEnv) filterStage(st *syntax.Stmt) (kind int, hides bool) {
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok {
		return stageEnds, false // a compound stage: not a plain filter
	}
	argv, ambiguous := stageArgv(c.staticArgv(call)) // stageargv.go
	if len(argv) == 0 || ambiguous {
		return stageEnds, false
	}
	switch prog := argv[0]; {
	case passStages.has(prog) && !stageWritesFile(argv):
		return stagePasses, false
	case prog == "wc":
		return stageEnds, true
	case prog == "cut":
		return stageEnds, cutsNamesOnly(argv[1:])
	case prog == "grep" || prog == "egrep" || prog == "fgrep" || prog == "rg":
		hides, keeps := grepKeepsNamedOnly(prog, argv[1:])
		if hides {
			return stageEnds, true
		}
		if !keeps {
			return stageEnds, false
		}
		return stageKeepsNamed, false
	}
	return stageEnds, false
}

// cutsNamesOnly: cut -d= -f1 (in any spelling cut accepts) prints only
// the names.
func cutsNamesOnly(args []string) bool {
	delim, field := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func() string {
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch {
		case a == "-d" || a == "--delimiter":
			delim = next() == "="
		case strings.HasPrefix(a, "--delimiter="):
			delim = strings.TrimPrefix(a, "--delimiter=") == "="
		case strings.HasPrefix(a, "-d"):
			delim = a[2:] == "="
		case a == "-f" || a == "--fields":
			field = next() == "1"
		case strings.HasPrefix(a, "--fields="):
			field = strings.TrimPrefix(a, "--fields=") == "1"
		case strings.HasPrefix(a, "-f"):
			field = a[2:] == "1"
		case a == "-s" || a == "--only-delimited":
			// drops lines without the delimiter: fewer lines, no values
		default:
			return false
		}
	}
	return delim && field
}

// grepKeepsNamedOnly judges a grep or rg stage: hides when it prints no
// line (a count, a quiet test, file names), keeps when every line it can
// keep is a named, non-secret-looking variable.
func grepKeepsNamedOnly(prog string, args []string) (hides, keeps bool) {
	var pats []string
	word, fixed, count := false, prog == "fgrep", false
	dashes := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if dashes || !strings.HasPrefix(a, "-") || a == "-" {
			pats = append(pats, a)
			continue
		}
		if a == "--" {
			dashes = true
			continue
		}
		if strings.HasPrefix(a, "--") {
			name, val, hasVal := strings.Cut(a[2:], "=")
			switch {
			case name == "regexp":
				if !hasVal {
					if i+1 >= len(args) {
						return false, false
					}
					i++
					val = args[i]
				}
				pats = append(pats, val)
			case name == "ignore-case" || name == "extended-regexp" || name == "perl-regexp" || name == "basic-regexp" ||
				name == "line-number" || name == "no-filename" || name == "color" || name == "colour" || name == "only-matching":
			case name == "word-regexp":
				word = true
			case name == "fixed-strings":
				fixed = true
			case name == "count" || name == "quiet" || name == "silent" || name == "files-with-matches":
				count = true
			default:
				return false, false // -v, -f FILE, context lines, anything unknown
			}
			continue
		}
		// short flags, possibly bundled; -e takes the rest or the next word
		flags := a[1:]
		for j := 0; j < len(flags); j++ {
			switch f := flags[j]; f {
			case 'i', 'E', 'P', 'G', 'n', 'h', 'H', 's', 'o':
			case 'w':
				word = true
			case 'F':
				fixed = true
			case 'c', 'q', 'l':
				count = true
			case 'e':
				v := flags[j+1:]
				if v == "" {
					if i+1 >= len(args) {
						return false, false
					}
					i++
					v = args[i]
				}
				pats = append(pats, v)
				j = len(flags)
			default:
				return false, false
			}
		}
	}
	if len(pats) == 0 || fixed {
		return false, false
	}
	if prog == "grep" && len(pats) > 1 && !hasDashE(args) {
		pats = pats[:1] // the rest are files
	}
	if count {
		// A count or a yes/no still answers whether the pattern matched:
		// one that can reach into a value (`^ANTHROPIC_API_KEY=sk-a`, or
		// any unanchored text) reads the value bit by bit. Only a test
		// of which names are set hides every value.
		for _, p := range pats {
			if !namesOnly(p) {
				return false, false
			}
		}
		return true, false
	}
	for _, p := range pats {
		if !namesWholeVariables(p, word) {
			return false, false
		}
	}
	return false, true
}

func hasDashE(args []string) bool {
	for _, a := range args {
		if a == "-e" || strings.HasPrefix(a, "--regexp") || strings.HasPrefix(a, "-e") && !strings.HasPrefix(a, "--") {
			return true
		}
	}
	return false
}

// namesWholeVariables reports whether the pattern can only match lines of
// variables it names completely, none of them secret-looking: ^NAME=,
// ^(A|B)=, ^A=|^B=, or ^NAME with grep -w (a name ends at the = that
// follows it). Both `|` and `\|` separate alternatives. A newline makes
// grep (and rg) search for each line as a pattern of its own
// ($'^HOME=\nKEY' keeps every line holding KEY), so it is refused.
func namesWholeVariables(p string, word bool) bool {
	alts, ok := anchoredAlternatives(p)
	if !ok {
		return false
	}
	for _, name := range alts {
		end := strings.IndexFunc(name, func(r rune) bool {
			return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		})
		tail := ""
		if end >= 0 {
			name, tail = name[:end], name[end:]
		}
		if name == "" || secretLookingName(name) {
			return false
		}
		if !strings.HasPrefix(tail, "=") && !(word && tail == "") {
			return false
		}
	}
	return true
}

// namesOnly: the pattern matches at most a variable's name, anchored at
// the start of the line, and perhaps the = after it: ^NAME, ^NAME=,
// ^(A|B)=. Secret-looking names count too: whether a key is set is not its
// value.
func namesOnly(p string) bool {
	alts, ok := anchoredAlternatives(p)
	if !ok {
		return false
	}
	for _, name := range alts {
		name = strings.TrimSuffix(name, "=")
		if name == "" || strings.IndexFunc(name, func(r rune) bool {
			return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		}) >= 0 {
			return false
		}
	}
	return true
}

// anchoredAlternatives splits a grep pattern into its alternatives (`|`
// or `\|`, and one ^(A|B)tail group), each with its leading ^ taken off.
// ok is false when any alternative is not anchored at the start of the
// line, when the grouping is more than that one group, or when the pattern
// holds a newline: grep (and rg) search for each line as a pattern of its
// own ($'^HOME=\nKEY' keeps every line holding KEY).
func anchoredAlternatives(p string) (alts []string, ok bool) {
	if strings.ContainsAny(p, "\n\r") {
		return nil, false
	}
	p = strings.ReplaceAll(p, `\|`, "|")
	p = strings.ReplaceAll(p, `\(`, "(")
	p = strings.ReplaceAll(p, `\)`, ")")
	var raw []string
	if rest, grouped := strings.CutPrefix(p, "^("); grouped {
		inner, tail, closed := strings.Cut(rest, ")")
		if !closed || strings.ContainsAny(inner, "()") {
			return nil, false
		}
		for _, a := range strings.Split(inner, "|") {
			raw = append(raw, "^"+a+tail)
		}
	} else {
		raw = strings.Split(p, "|")
	}
	for _, a := range raw {
		name, anchored := strings.CutPrefix(a, "^")
		if !anchored {
			return nil, false
		}
		alts = append(alts, name)
	}
	return alts, true
}
