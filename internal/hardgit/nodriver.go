package hardgit

import (
	"slices"
	"strings"
)

// noDriver are the git commands that never run a filter, diff or merge
// driver whatever the repository's config and attributes say: they read and
// write refs, config, trees and commits, never convert a file's content. The
// value, when set, lists every flag the command may carry and still skip the
// scan (anything else, e.g. ls-files -m, which may hash a work-tree file
// through its clean filter, gets the scan); a nil value takes any flag but
// those in refuse.
var noDriver = map[string][]string{
	"rev-parse":    nil,
	"init":         nil,
	"mktree":       nil,
	"commit-tree":  nil,
	"symbolic-ref": nil,
	"update-ref":   nil,
	"show-ref":     nil,
	"for-each-ref": nil,
	"ls-tree":      nil,
	"write-tree":   nil,
	"read-tree":    {}, // no -u, -m, --reset: the index only, no checkout or merge
	"cat-file":     nil,
	"config":       nil,
	"remote":       {"remove", "rm", "get-url"},
	"ls-files":     {"-z", "--others", "-o", "--exclude-standard", "--cached", "-c", "--stage", "-s", "--full-name", "--error-unmatch"},
}

// refuse are flags that make an otherwise driver-free command convert
// content (cat-file's --textconv and --filters).
var refuse = []string{"--textconv", "--filters"}

// RunsNoDriver reports whether git args (past any -c pairs) is a command
// that cannot run a filter, diff or merge driver, so Run may skip the scan
// of the repository's config for drivers (a second git start per call).
// The -c list and the environment stay. Anything it does not know gets the
// scan.
func RunsNoDriver(args []string) bool {
	i := 0
	for i+1 < len(args) && args[i] == "-c" {
		i += 2
	}
	if i >= len(args) {
		return false
	}
	allowed, ok := noDriver[args[i]]
	if !ok {
		return false
	}
	rest := args[i+1:]
	for j, a := range rest {
		if refused(a) {
			return false
		}
		if allowed == nil {
			continue
		}
		if a == "--" {
			return true // paths follow
		}
		if args[i] == "remote" && j == 0 {
			if !slices.Contains(allowed, a) {
				return false // remote's own subcommand
			}
			continue
		}
		if strings.HasPrefix(a, "-") && !slices.Contains(allowed, a) {
			return false
		}
		// Otherwise an operand: a path, a tree, a remote's name.
	}
	return true
}

// refused says whether a spells a refused flag: whole, with a value, or
// as git's parse-options takes it, any unambiguous prefix of a long option
// (--filt is --filters).
func refused(a string) bool {
	name, _, _ := strings.Cut(a, "=")
	if len(name) <= 2 || !strings.HasPrefix(name, "--") {
		return false
	}
	for _, r := range refuse {
		if strings.HasPrefix(r, name) {
			return true
		}
	}
	return false
}
