package policy

import "strings"

// A project's binstubs (bin/rails, bin/rspec, bin/rubocop) are in the bin/
// of the project they belong to, which in a monorepo is a subdirectory of
// the workspace (`cd api && ./bin/rubocop -a` runs api/bin/rubocop). The
// bin/ of any plain project directory holds them, as the workspace's own
// bin/ does; a bin/ inside a hidden directory or a package manager's tree
// (.git/, node_modules/, vendor/) is not a project's.

// binstubName is the program name of r (a path relative to the workspace)
// when r is DIR/bin/NAME of a plain project directory DIR.
func binstubName(r string) (string, bool) {
	dir, name, ok := cutLast(r, "/")
	if !ok || name == "" {
		return "", false
	}
	if dir != "bin" && !strings.HasSuffix(dir, "/bin") {
		return "", false
	}
	for _, el := range strings.Split(dir, "/") {
		if el == "" || strings.HasPrefix(el, ".") || el == "node_modules" || el == "vendor" {
			return "", false
		}
	}
	return name, true
}

// cutLast is strings.Cut at the last sep.
func cutLast(s, sep string) (before, after string, found bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}
