package policy

import "strings"

// A CI file inside a vendored tree (node_modules/**/.travis.yml,
// vendor/**/.circleci/config.yml) is another project's: CI reads only this
// project's own files (Travis the root's .travis.yml, GitHub the root's
// .github/workflows/), so nothing runs it here. The write check
// (runLater) and the review's flags (runner/patch) both ask RunsLaterHere,
// so the two never disagree about the same file (#37 F4). Only CI
// entries are exempt: a vendored git hook, .envrc or editor task stays
// person-only and flagged.

// vendoredDirs are the directory names package managers fill with other
// projects' files.
var vendoredDirs = []string{"node_modules", "bower_components", "vendor", "third_party", "third-party", "site-packages", "dist-packages"}

// RunsLaterHere is RunsLater for a file of this project: the first
// entry, strongest class first, that matches the project-relative path p,
// leaving out CI entries when p is inside a vendored tree.
func RunsLaterHere(p string) (RunLaterEntry, bool) {
	elems := foldedElems(p)
	vendored := inVendoredTree(p)
	for _, e := range runLaterList.get() {
		if e.matches(elems) && !(vendored && e.Class == RunsUnasked && isCI(e)) {
			return e, true
		}
	}
	return RunLaterEntry{}, false
}

// isCI is an entry of runlater.toml's CI group (its reasons name CI).
func isCI(e RunLaterEntry) bool { return strings.HasPrefix(e.Reason, "CI ") }

// inVendoredTree reports whether one of p's directories (not the file
// itself) is a vendored tree.
func inVendoredTree(p string) bool {
	elems := strings.Split(strings.ReplaceAll(p, "\\", "/"), "/")
	for _, d := range elems[:len(elems)-1] {
		for _, v := range vendoredDirs {
			if strings.EqualFold(d, v) {
				return true
			}
		}
	}
	return false
}
