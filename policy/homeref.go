package policy

import "strings"

// How code names the home directory and the argv it spawns.
//
// Code deletes or spawns with the home directory spelled in its own
// language: Perl's $ENV{HOME}, PHP's getenv("HOME"), Ruby's Dir.home,
// Python's os.environ['HOME'] and Path.home(), Node's os.homedir() and
// process.env.HOME, PowerShell's $HOME and $env:USERPROFILE. And it spawns
// a program either as one shell line (system("rm -rf " . getenv("HOME")))
// or as a list of words (system("rm", "-rf", $ENV{HOME}),
// subprocess.run(["rm", "-rf", os.path.expanduser("~")]),
// spawnSync("rm", ["-rf", os.homedir()])). spawnLine turns either form into
// the shell line it amounts to, the home directory written ~ and any other
// expression as a value that cannot be known, so the line is judged as the
// command it runs.

// homeRefs are the spellings, lower-cased and without blanks, that name
// the home directory in code.
var homeRefs = []string{"expanduser", "homedir", "home()", "dir.home", "path.home", "user.home", "$env{home}",
	"env['home']", "env[\"home\"]", "env[:home]", "getenv('home')", "getenv(\"home\")", "environ['home']", "environ[\"home\"]",
	"environ.get('home'", "environ.get(\"home\"", "env.home", "$home", "env:home", "env:userprofile", "home_dir(",
	"fetch('home')", "fetch(\"home\")", "getproperty(\"user.home\")", "sys.getenv(\"home\")",
	"env.get('home')", "env.get(\"home\")", "user_home"} // Deno.env.get("HOME"), Elixir System.user_home!

// codeNamesHome reports whether the code text names the home directory.
func codeNamesHome(text string) bool {
	low := strings.ToLower(strings.Join(strings.Fields(text), ""))
	for _, r := range homeRefs {
		if strings.Contains(low, r) {
			return true
		}
	}
	return false
}

// unknownCodeValue stands for an expression whose value the code computes.
const unknownCodeValue = "\"$SENTINEL_CODE_VALUE\""

// callArgs splits a call's arguments (the text after its opening
// parenthesis, up to its closing one) at the top-level commas.
func callArgs(args string) []string {
	if end := closingParen(args); end >= 0 {
		args = args[:end]
	}
	return splitCodeArgs(args)
}

// spawnLine returns the shell line a spawning call's arguments (the text
// after its opening parenthesis) amount to.
func spawnLine(args string) (string, bool) {
	pieces := callArgs(perlQuotedArgs(args)) // perlquote.go: system(q{…}), $ENV{HOME}
	if len(pieces) == 0 {
		return "", false
	}
	first := strings.TrimSpace(pieces[0])
	if strings.HasPrefix(first, "[") {
		return argvLine(splitCodeArgs(strings.TrimSuffix(first[1:], "]"))), true
	}
	if !stringish(first) {
		return "", false
	}
	var argv []string
	argv = append(argv, first)
	for _, p := range pieces[1:] {
		p = strings.TrimSpace(p)
		switch {
		case strings.HasPrefix(p, "["):
			argv = append(argv, splitCodeArgs(strings.TrimSuffix(p[1:], "]"))...)
		case stringish(p):
			argv = append(argv, p)
		}
	}
	if len(argv) == 1 {
		v, _ := codeStringValue(first)
		return v, true // one string: a shell line
	}
	return argvLine(argv), true
}

// stringish: the piece is a string literal, or a string built from one or
// from a home-directory expression (not an option object or keyword).
func stringish(p string) bool {
	p = strings.TrimSpace(p)
	if p == "" {
		return false
	}
	if p[0] == '"' || p[0] == '\'' || p[0] == '`' {
		return true
	}
	return codeNamesHome(p) && !strings.ContainsAny(p[:1], "{:")
}

// argvLine writes argv pieces as one shell line, each a word.
func argvLine(pieces []string) string {
	var words []string
	for _, p := range pieces {
		v, lit := codeStringValue(strings.TrimSpace(p))
		if !lit {
			words = append(words, v)
			continue
		}
		words = append(words, shellWord(v))
	}
	return strings.Join(words, " ")
}

// shellWord quotes v for the shell unless it is plain; a leading ~ stays
// bare, as the home directory it stands for.
func shellWord(v string) string {
	if v == "~" {
		return v
	}
	if strings.HasPrefix(v, "~/") {
		return "~/" + shellWord(v[2:])
	}
	plain := v != ""
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(isIdent(c) || strings.IndexByte("-./=:@%+,", c) >= 0) {
			plain = false
		}
	}
	if plain {
		return v
	}
	return "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
}

// codeStringValue evaluates a piece built of string literals and
// expressions joined by . or +: the literals' text, ~ for an expression
// naming the home directory, an unknowable value for any other. lit
// reports that the piece is literal text only.
func codeStringValue(p string) (v string, lit bool) {
	var b strings.Builder
	lit = true
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			end := strings.IndexByte(p[i+1:], c)
			if end < 0 {
				b.WriteString(p[i+1:])
				return b.String(), lit
			}
			b.WriteString(p[i+1 : i+1+end])
			i += end + 2
		case c == ' ' || c == '\t' || c == '.' || c == '+':
			i++
		default:
			j := exprEnd(p, i)
			expr := p[i:j]
			lit = false
			if codeNamesHome(expr) {
				b.WriteString("~")
			} else {
				return unknownCodeValue, false
			}
			i = j
		}
	}
	return b.String(), lit
}

// exprEnd returns where the expression starting at i ends: at a top-level
// quote, ' . ' or '+', outside any parentheses or brackets.
func exprEnd(p string, i int) int {
	depth := 0
	for j := i; j < len(p); j++ {
		switch c := p[j]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '"', '\'':
			if depth == 0 {
				return j
			}
			if end := strings.IndexByte(p[j+1:], c); end >= 0 {
				j += end + 1
			}
		case '+':
			if depth == 0 {
				return j
			}
		case ' ':
			if depth == 0 && j+1 < len(p) && (p[j+1] == '.' || p[j+1] == '+') {
				return j
			}
		}
	}
	return len(p)
}

// closingParen is the index of the parenthesis that closes an argument
// list, skipping quoted text, or -1.
func closingParen(s string) int {
	depth := 1
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\'':
			if end := strings.IndexByte(s[i+1:], c); end >= 0 {
				i += end + 1
			}
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// splitCodeArgs splits an argument list at its top-level commas.
func splitCodeArgs(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\'':
			if end := strings.IndexByte(s[i+1:], c); end >= 0 {
				i += end + 1
			}
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	if strings.TrimSpace(s[start:]) != "" {
		out = append(out, s[start:])
	}
	return out
}
