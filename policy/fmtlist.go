package policy

import "strings"

// Formatters' list mode as a producer of names (polcorp14, issue 32).
// `test -z "$(gofmt -l .)" || exit 1` is how Go projects' CI steps and
// AGENTS.md files check formatting: gofmt -l prints the names of the files
// whose formatting differs and changes nothing. With only its list and
// reading flags and workspace operands, gofmt (goimports, gofumpt, shfmt)
// is a names producer like `git ls-files` (subst.go): its output is judged
// as the names the workspace holds. A write (-w), a diff (-d), any other
// flag or an operand outside the workspace leaves the substitution
// unjudged, as before.

// listFormatters are the formatters whose -l lists without writing.
var listFormatters = wordSet{words: []string{"gofmt", "goimports", "gofumpt", "shfmt"}}

// listOnlyFormat: argv is one of listFormatters given -l, only the flags
// that change what is reported (-s simplify, -e all errors, -extra), and
// operands that stay in the workspace.
func listOnlyFormat(argv []string) bool {
	if len(argv) == 0 || !listFormatters.has(argv[0]) {
		return false
	}
	list := false
	for _, a := range argv[1:] {
		switch a {
		case "-l":
			list = true
			continue
		case "-s", "-e", "-extra":
			continue
		}
		if a == "" || strings.HasPrefix(a, "-") || strings.HasPrefix(a, "/") || strings.HasPrefix(a, "~") ||
			strings.Contains(a, "$") || a == ".." || strings.HasPrefix(a, "../") || strings.Contains(a, "/../") || strings.HasSuffix(a, "/..") {
			return false
		}
	}
	return list
}
