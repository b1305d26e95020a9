package policy

import "strings"

// Output-directory variables judged by value, not only by name: a
// variable that only moves where a tool writes its build outputs, whose
// default already lies under the project (cargo's ./target), may name
// another directory under the directory the command runs in
// (CARGO_TARGET_DIR=target/ci): nothing new is read or run. Any other
// value (an absolute path, ~, .., an expansion) asks as before, and
// variables whose default lies outside the project (GOCACHE, GOMODCACHE,
// CARGO_HOME) are not here: pointing them into the workspace would make a
// tool trust files it did not write.

var outputDirVars = wordSet{words: []string{"CARGO_TARGET_DIR", "CARGO_BUILD_TARGET_DIR"}}

// outputDirVar: NAME is an output-directory variable and value a plain
// relative path below the current directory.
func outputDirVar(name, value string) bool {
	if !outputDirVars.has(name) || value == "" || strings.HasPrefix(value, "/") || strings.HasPrefix(value, "~") || strings.HasPrefix(value, "-") {
		return false
	}
	for _, part := range strings.Split(strings.TrimSuffix(value, "/"), "/") {
		if part == ".." || part == "" || !plainToken(part) {
			return false
		}
	}
	return true
}
