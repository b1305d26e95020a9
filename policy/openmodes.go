package policy

import "strings"

// readOnlyOpenArgs reports whether the arguments of an open( call (up to
// its closing parenthesis, lower-cased) open for reading only: a path
// alone, or with a mode literal made only of r, b and t ('rb', "rt",
// mode='r'), and nothing else after it (polcorp7 class 4:
// `tomllib.load(open('pyproject.toml','rb'))`). A mode holding w, a, x or
// +, a mode from a variable, or any other argument is not.
func readOnlyOpenArgs(args string) bool {
	_, rest, ok := strings.Cut(args, ",")
	if !ok {
		return true
	}
	rest = strings.TrimSpace(rest)
	rest = strings.TrimSpace(strings.TrimPrefix(rest, "mode="))
	if len(rest) < 2 || rest[0] != '\'' && rest[0] != '"' {
		return false
	}
	end := strings.IndexByte(rest[1:], rest[0])
	if end < 1 {
		return false
	}
	mode := rest[1 : 1+end]
	if strings.Trim(mode, "rbt") != "" || !strings.Contains(mode, "r") {
		return false
	}
	return strings.TrimSpace(rest[2+end:]) == ""
}
