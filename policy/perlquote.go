package policy

import (
	"regexp"
	"strings"
)

// Perl's quote-like operators and environment reads inside the arguments
// of a spawning call. system(q{rm -rf --no-preserve-root /}),
// system(qq{shred -u "$HOME/.ssh/id_ed25519"}) and system("rm -rf
// $ENV{HOME}/.ssh") run those shell lines as system("…") does, but the
// line was not read as a string (polcorp9, polcorp10: perl -e
// 'system(q{…})' asked as inline code while python's os.system("…") of the
// same line is denied). q and qq with a bracketing or a plain delimiter
// are rewritten as a quoted string, and $ENV{NAME} inside a double-quoted
// string as the shell's ${NAME}, before the call's arguments are read (homeref.go spawnLine).
// The rewrite only lets more of a line be judged: it can only deny.

// perlQuoteLike matches q{…}, qq(…), q[…], q<…> and q/…/, q!…!, q|…| at
// the start of a piece or after a blank, a comma or an opening
// parenthesis; braces and parentheses may nest one level ($ENV{HOME}).
var perlQuoteLike = lazy[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(^|[\s,(])qq?(\{(?:[^{}]|\{[^{}]*\})*\}|\((?:[^()]|\([^()]*\))*\)|\[[^\[\]]*\]|<[^<>]*>|/[^/]*/|![^!]*!|\|[^|]*\|)`)
}}

// perlEnvRead matches $ENV{NAME} and $ENV{'NAME'}.
var perlEnvRead = lazy[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`\$ENV\{['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?\}`)
}}

// perlQuotedArgs rewrites the quote-like operators and environment reads
// of a call's argument text.
func perlQuotedArgs(args string) string {
	if !strings.Contains(args, "q") && !strings.Contains(args, "$ENV{") {
		return args
	}
	args = perlQuoteLike.get().ReplaceAllStringFunc(args, func(m string) string {
		lead := ""
		if m != "" && (m[0] == ' ' || m[0] == '\t' || m[0] == ',' || m[0] == '(' || m[0] == '\n') {
			lead, m = m[:1], m[1:]
		}
		body := strings.TrimPrefix(strings.TrimPrefix(m, "q"), "q")
		inner := body[1 : len(body)-1]
		switch {
		case !strings.Contains(inner, `"`):
			return lead + `"` + inner + `"`
		case !strings.Contains(inner, "'"):
			return lead + "'" + inner + "'"
		}
		return lead + m
	})
	return inDoubleQuotes(args, func(seg string) string {
		return perlEnvRead.get().ReplaceAllString(seg, "$${$1}")
	})
}

// inDoubleQuotes applies f to the text inside each double-quoted string of
// s (a bare $ENV{HOME} argument is an expression the call readers know as
// the home directory, homeref.go, and is left alone).
func inDoubleQuotes(s string, f func(string) string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i+1:], '"')
		if j < 0 {
			break
		}
		b.WriteString(s[:i+1])
		b.WriteString(f(s[i+1 : i+1+j]))
		b.WriteByte('"')
		s = s[i+2+j:]
	}
	b.WriteString(s)
	return b.String()
}
