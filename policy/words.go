package policy

import (
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// word is a shell word decoded statically: quotes removed, escapes and
// $'…' decoded, a leading ~ expanded.
type word struct {
	val     string
	static  bool // no expansion or substitution of any kind
	pattern bool // unquoted glob or brace-expansion characters: the shell may turn it into other words
	brace   bool // unquoted brace expansion: the shell turns it into several words
	tilde   bool // began with an unquoted ~ that was expanded
	// userTilde: the word is one literal beginning with ~NAME, which bash
	// expands to NAME's home directory when that login exists (tildeuser.go).
	userTilde bool
	// benignVars: every dynamic part is a plain $NAME of a variable whose
	// value is not secret ($?, $HOME, $PWD, …); printing it is harmless.
	benignVars bool
	// procSubst: the word is a single <(…) or >(…), which the shell
	// replaces with a /dev/fd path; the commands inside are judged apart.
	procSubst bool
	// fetch: a substitution in the word runs a program that downloads
	// (curl, wget, …) or decodes (base64 -d, xxd -r, gunzip, …): its
	// output is text nobody has seen.
	fetch bool
	// subst: the word holds a producer's output judged through a stand-in
	// (subst.go); the class limits which programs may take it.
	subst byte
	// braced: a brace expansion made the word (braces.go); which role it
	// plays depends on how many words there are.
	braced bool
	// ifEmpty: the word's value when every substitution in it prints
	// nothing (its producer failed), set with hasIfEmpty (emptysubst.go).
	ifEmpty    string
	hasIfEmpty bool
	// fixed: for a word that is not static, how many bytes of val were
	// written before its first expansion (fixedprefix.go).
	fixed int
	// homeFixed: the word begins with a plain $HOME (bare or first in
	// double quotes), which bash expands as it does ~; 1 + how many bytes
	// of val follow it before the next expansion (fixedprefix.go); 0 when
	// the word does not begin so.
	homeFixed int
}

// fetchWalkNodes counts the nodes fetchesIn has visited, so that a test
// can see the work a line of nested substitutions costs grow no faster
// than the square of its depth (TestNestedSubstitutionWorkIsQuadratic).
var fetchWalkNodes atomic.Int64

// fetchers download text a shell could then run.
var fetchers = wordSet{words: []string{"curl", "wget", "fetch", "http", "https", "xh", "aria2c", "lynx", "links", "w3m",
	"nc", "ncat", "netcat", "socat", "openssl", "ftp", "tftp", "scp", "rsync", "ssh", "gh", "aws", "gsutil",
	"s3cmd", "rclone", "httpie", "powershell", "pwsh", "iwr", "invoke-webrequest"}}

// fetchesIn reports whether a substitution inside n runs a fetcher or a
// decoder.
func fetchesIn(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
		fetchWalkNodes.Add(1)
		if found {
			return false
		}
		if call, ok := n.(*syntax.CallExpr); ok {
			for _, a := range call.Args {
				v := a.Lit()
				if b, ok := resolvedProgram(v); ok {
					v = b
				}
				if fetchers.has(strings.ToLower(v)) {
					found = true
					return false
				}
			}
			if decodes(call) { // decoders.go
				found = true
				return false
			}
		}
		return true
	})
	return found
}

var benignParams = wordSet{words: []string{"?", "#", "$", "!", "-", "0", "HOME", "PWD", "OLDPWD", "USER", "SHELL", "PATH",
	"GOPATH", "GOROOT", "LANG", "TERM", "HOSTNAME", "SHLVL", "RANDOM", "LINENO", "SECONDS", "PPID", "UID", "EUID",
	"BASH_VERSION", "OSTYPE", "MACHTYPE", "HOSTTYPE", "TMPDIR", "CI", "GOOS", "GOARCH", "GOBIN", "GOFLAGS",
	"GOPROXY", "GOVERSION", "GOMODCACHE", "GOCACHE", "NODE_ENV", "JAVA_HOME", "VIRTUAL_ENV", "CONDA_DEFAULT_ENV",
	"PYTHONPATH", "CARGO_HOME", "RUSTUP_HOME", "NVM_DIR", "EDITOR", "PAGER", "LC_ALL", "LOGNAME", "COLUMNS",
	"LINES", "PIPESTATUS", "BASH_SOURCE", "FUNCNAME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "@", "*", "1", "2", "3"}}

// benignParam reports a plain expansion of a non-secret variable.
func benignParam(n syntax.WordPart) bool {
	pe, ok := n.(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Excl || pe.Length || pe.Width || pe.Index != nil || pe.Slice != nil ||
		pe.Repl != nil || pe.Names != 0 || pe.Exp != nil || pe.NestedParam != nil {
		return false
	}
	return benignParams.has(pe.Param.Value)
}

// decodeWord decodes w. home is used for a leading "~" or "~/".
func decodeWord(w *syntax.Word, home string) word {
	out := decodeShallow(w, home)
	if out.procSubst {
		out.fetch = fetchesIn(w.Parts[0])
	} else if !out.static {
		out.fetch = fetchesIn(w)
	}
	return out
}

// decodeShallow is decodeWord without fetch, which walks every
// substitution inside w: a caller that reads only the value (the binder,
// bindprop.go) calls it at every level of a nested $( … $( … ) … ), where
// the walk of each level would make a line of depth d cost d³
// (BenchmarkCheckNestedDepth).
func decodeShallow(w *syntax.Word, home string) word {
	if len(w.Parts) == 1 {
		if _, ok := w.Parts[0].(*syntax.ProcSubst); ok {
			return word{val: "/dev/fd/63", static: true, procSubst: true}
		}
	}
	return decodeParts(w, home)
}

func decodeParts(w *syntax.Word, home string) word {
	var b strings.Builder
	out := word{static: true, benignVars: true}
	homeLead := false
	afterHome := func(q syntax.WordPart, first bool) {
		switch {
		case first && home != "" && plainHome(q):
			homeLead = true
		case homeLead && out.homeFixed == 0:
			out.homeFixed = b.Len() + 1
		}
	}
	for i, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			if i == 0 && strings.HasPrefix(v, "~") {
				rest := v[1:]
				end := strings.IndexByte(rest, '/')
				user := rest
				if end >= 0 {
					user = rest[:end]
				}
				if user != "" || home == "" {
					// ~user, ~+, ~- or no home: not knowable statically.
					out.notStatic(&b)
					out.userTilde = len(w.Parts) == 1 && userTildePrefix(v) // tildeuser.go
				} else {
					b.WriteString(home)
					out.tilde = true
					v = rest
				}
			} else if i == 0 {
				// bash (not in POSIX mode) expands ~ after "name=" and
				// after ":" in such a word even when it is an argument:
				// dd of=~/.bashrc writes the home directory, and
				// dd if=~bob/x reads bob's (tildeuser.go).
				if assignUserTilde(v) {
					out.notStatic(&b)
				}
				if home != "" {
					v = expandAssignTilde(v, home)
				}
			}
			if pat, br := unquotedLit(&b, v); pat {
				out.pattern = true
				out.brace = out.brace || br
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				s, ok := decodeANSIC(p.Value)
				if !ok {
					out.notStatic(&b)
				}
				b.WriteString(s)
			} else {
				b.WriteString(p.Value)
			}
		case *syntax.DblQuoted:
			for j, q := range p.Parts {
				lit, ok := q.(*syntax.Lit)
				if !ok {
					afterHome(q, i == 0 && j == 0)
					out.notStatic(&b)
					if !benignParam(q) {
						out.benignVars = false
					}
					continue
				}
				dquoteLit(&b, lit.Value)
			}
		default:
			// ParamExp, CmdSubst, ArithmExp, ProcSubst, ExtGlob, BraceExp.
			afterHome(p, i == 0)
			out.notStatic(&b)
			if !benignParam(p) && !literalArith(p) {
				out.benignVars = false
			}
		}
	}
	out.val = b.String()
	if strings.IndexByte(out.val, 0) >= 0 {
		out.static = false
	}
	if homeLead && out.homeFixed == 0 {
		out.homeFixed = len(out.val) + 1
	}
	return out
}

// plainHome: the part is $HOME or ${HOME}, nothing done to it.
func plainHome(p syntax.WordPart) bool {
	pe, ok := p.(*syntax.ParamExp)
	return ok && benignParam(p) && pe.Param.Value == "HOME"
}

// unquotedLit appends the unescaped text of an unquoted literal and
// reports whether it holds unescaped glob or brace-expansion syntax: * or
// ?, a [ closed by a later ], or a { … } holding a comma or "..".
func unquotedLit(b *strings.Builder, v string) (pattern, brace bool) {
	var marks []byte // unescaped special characters, in order
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '\\' {
			if i+1 < len(v) {
				i++
				if v[i] != '\n' {
					b.WriteByte(v[i])
				}
			}
			continue
		}
		switch c {
		case '*', '?':
			pattern = true
		case '[', ']', '{', '}', ',':
			marks = append(marks, c)
		case '.':
			if i+1 < len(v) && v[i+1] == '.' {
				marks = append(marks, ',')
			}
		}
		b.WriteByte(c)
	}
	open := strings.IndexByte(string(marks), '[')
	if open >= 0 && strings.IndexByte(string(marks[open:]), ']') > 0 {
		pattern = true
	}
	if ob := strings.IndexByte(string(marks), '{'); ob >= 0 {
		rest := string(marks[ob:])
		if cb := strings.IndexByte(rest, '}'); cb > 0 && strings.IndexByte(rest[:cb], ',') > 0 {
			pattern, brace = true, true
		}
	}
	return pattern, brace
}

// dquoteLit appends a literal from inside double quotes, where a backslash
// only escapes $ ` " \ and newline.
func dquoteLit(b *strings.Builder, v string) {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '\\' && i+1 < len(v) {
			switch v[i+1] {
			case '$', '`', '"', '\\':
				b.WriteByte(v[i+1])
				i++
				continue
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(c)
	}
}

// decodeANSIC decodes the body of a $'…' string as bash does.
func decodeANSIC(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '?':
			b.WriteByte(e)
		case 'c':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i] & 0x1f)
			}
		case 'x', 'u', 'U':
			max := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			j := i + 1
			for j < len(s) && j-i-1 < max && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			n, err := strconv.ParseUint(s[i+1:j], 16, 32)
			if err != nil {
				return b.String(), false
			}
			if e == 'x' {
				b.WriteByte(byte(n))
			} else {
				if !utf8.ValidRune(rune(n)) {
					return b.String(), false
				}
				b.WriteRune(rune(n))
			}
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 16)
			b.WriteByte(byte(n))
			i = j - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String(), true
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// literalPrefixDir returns the part of a pattern word before the first path
// component holding a glob or brace character: the directory the shell
// will search. "src/*.go" gives "src", "*" gives ".", "~/.ssh/id*" gives
// "~/.ssh" (already expanded).
func literalPrefixDir(v string) string {
	i := strings.IndexAny(v, "*?[{")
	if i < 0 {
		return v
	}
	j := strings.LastIndexByte(v[:i], '/')
	if j < 0 {
		return "."
	}
	if j == 0 {
		return "/"
	}
	return v[:j]
}

// expandAssignTilde expands "~" right after the "=" of a leading NAME= and
// after each ":" following it.
func expandAssignTilde(v, home string) string {
	eq := strings.IndexByte(v, '=')
	if eq <= 0 || !validName(v[:eq]) {
		return v
	}
	parts := strings.Split(v[eq+1:], ":")
	for i, p := range parts {
		if p == "~" || strings.HasPrefix(p, "~/") {
			parts[i] = home + p[1:]
		}
	}
	return v[:eq+1] + strings.Join(parts, ":")
}

// literalArith reports $(( … )) of number literals and operators only:
// no variable, so no array subscript can run code.
func literalArith(n syntax.WordPart) bool {
	a, ok := n.(*syntax.ArithmExp)
	if !ok || a.X == nil {
		return false
	}
	good := true
	syntax.Walk(a.X, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Word:
			if len(x.Parts) != 1 {
				good = false
				return false
			}
			lit, ok := x.Parts[0].(*syntax.Lit)
			if !ok || !isNumberLit(lit.Value) {
				good = false
			}
			return false
		case *syntax.BinaryArithm, *syntax.UnaryArithm, *syntax.ParenArithm:
			return true
		case nil:
			return true
		default:
			good = false
			return false
		}
	})
	return good
}

func isNumberLit(v string) bool {
	if v == "" {
		return false
	}
	if strings.HasPrefix(v, "0x") || strings.HasPrefix(v, "0X") {
		v = v[2:]
		for i := 0; i < len(v); i++ {
			if !isHex(v[i]) {
				return false
			}
		}
		return v != ""
	}
	return isDigits(v)
}
