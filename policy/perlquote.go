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
// are rewritten as a quoted string, and $ENV{NAME} as the shell's
// ${NAME}, before the call's arguments are read (homeref.go spawnLine).
// The rewrite only lets more of a line be judged: it can only deny.

// perlQuoteLike matches q{…}, qq(…), q[…], q<…> and q/…/, q!…!, q|…| at
// the start of a piece or after a blank, a comma or an opening
// parenthesis; braces and parentheses may nest one level ($ENV{HOME}).
var perlQuoteLike = regexp.MustCompile(`(^|[\s,(])qq?(\{(?:[^{}]|\{[^{}]*\})*\}|\((?:[^()]|\([^()]*\))*\)|\[[^\[\]]*\]|<[^<>]*>|/[^/]*/|![^!]*!|\|[^|]*\|)`)

// perlEnvRead matches $ENV{NAME} and $ENV{'NAME'}.
var perlEnvRead = regexp.MustCompile(`\$ENV\{['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?\}`)

// perlQuotedArgs rewrites the quote-like operators and environment reads
// of a call's argument text.
func perlQuotedArgs(args string) string {
	if !strings.Contains(args, "q") && !strings.Contains(args, "$ENV{") {
		return args
	}
	args = perlQuoteLike.ReplaceAllStringFunc(args, func(m string) string {
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
	return perlEnvRead.ReplaceAllString(args, "$${$1}")
}
