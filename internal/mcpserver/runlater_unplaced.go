package mcpserver

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sentinelhq/sentinel/policy"
)

// writesUnplaced says whether a line runs a command that writes files
// whose names come from data, not from its words: a patch applied (git
// apply p.patch creates the .envrc the patch names), an archive extracted,
// a tree copied or moved, a git command that checks files out, cp/mv/ln/
// install into a -t directory. The policy's write judgement places only
// the targets a line names, so execRunLater counts these as writes whose
// target is unknown (refused in allowlist and strict modes). parts are
// the gate engine's Parts of the line, run in cwd.
func writesUnplaced(parts []policy.Part, cwd string) bool {
	for _, p := range parts {
		if len(p.Argv) > 0 && argvWritesUnplaced(p.Argv, cwd) {
			return true
		}
	}
	return false
}

// gitWorktreeWriters are git subcommands that write work-tree files named
// by git's data (a patch, a commit, a stash, a remote).
var gitWorktreeWriters = []string{"apply", "am", "checkout", "switch", "restore", "reset", "merge", "pull", "rebase",
	"cherry-pick", "revert", "stash", "read-tree", "checkout-index", "clone", "worktree", "submodule", "sparse-checkout", "bisect", "mv"}

func argvWritesUnplaced(argv []string, cwd string) bool {
	name := filepath.Base(argv[0])
	args := argv[1:]
	switch name {
	case "git":
		sub := gitSubcommand(args)
		if sub == "stash" {
			rest := afterWord(args, "stash")
			return len(rest) > 0 && !slices.Contains([]string{"list", "show", "push", "save", "create", "store", "drop", "clear"}, rest[0])
		}
		if sub == "bundle" || sub == "archive" {
			// Their output file is a word the policy's write judgement
			// does not place (git bundle create .envrc HEAD ran).
			rest := afterWord(args, sub)
			return sub == "bundle" && len(rest) > 0 && rest[0] == "create" ||
				sub == "archive" && slices.ContainsFunc(rest, func(a string) bool { return a == "-o" || strings.HasPrefix(a, "--output") })
		}
		if sub == "reset" {
			rest := afterWord(args, "reset")
			return slices.ContainsFunc(rest, func(a string) bool { return a == "--hard" || a == "--merge" || a == "--keep" })
		}
		if sub == "checkout" || sub == "switch" {
			return !newBranchOnly(afterWord(args, sub))
		}
		return slices.Contains(gitWorktreeWriters, sub)
	case "patch", "unzip", "cpio", "pax", "rsync", "ditto", "bsdcpio":
		return true
	case "tar", "bsdtar", "gtar":
		return tarExtracts(args)
	case "7z", "7za", "7zr":
		return len(args) > 0 && (args[0] == "x" || args[0] == "e")
	case "cp", "mv", "install", "ln":
		for _, a := range args {
			if a == "--" {
				break
			}
			if a == "--target-directory" || strings.HasPrefix(a, "--target-directory=") || a == "--recursive" || a == "--archive" {
				return true
			}
			if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a[1:], "trRa") {
				return true
			}
		}
		if name == "mv" || name == "cp" {
			// A directory moved or copied takes every name inside along.
			for _, a := range args {
				if strings.HasPrefix(a, "-") {
					continue
				}
				p := a
				if !filepath.IsAbs(p) {
					p = filepath.Join(cwd, p)
				}
				if st, err := os.Lstat(p); err == nil && st.IsDir() {
					return true
				}
			}
		}
	}
	return false
}

// gitSubcommand is git's subcommand, past its global options.
func gitSubcommand(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree" || a == "--namespace" || a == "--exec-path" || a == "--config-env":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}

func afterWord(args []string, w string) []string {
	if i := slices.Index(args, w); i >= 0 {
		return args[i+1:]
	}
	return nil
}

// tarExtracts says whether tar's words ask it to extract: -x, --extract,
// --get, or an old-style first word holding x.
func tarExtracts(args []string) bool {
	for i, a := range args {
		switch {
		case a == "--extract" || a == "--get":
			return true
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-"):
			if strings.Contains(a[1:], "x") {
				return true
			}
		case i == 0 && strings.Contains(a, "x"):
			return true
		}
	}
	return false
}

// newBranchOnly says whether git checkout/switch's words only start a
// branch where HEAD is (-b NAME, -c NAME): no file changes.
func newBranchOnly(rest []string) bool {
	made, words := false, 0
	for _, a := range rest {
		switch {
		case a == "-b" || a == "-B" || a == "-c" || a == "-C" || a == "--create" || a == "--force-create":
			made = true
		case a == "-q" || a == "--quiet":
		case strings.HasPrefix(a, "-"):
			return false
		default:
			words++
		}
	}
	return made && words == 1
}

// runsToolOf names what a line runs that no word of it names: git
// difftool and mergetool start a diff tool (-x/--extcmd CMD, --tool, or
// one the config names) on every changed file, a program the allowlist
// never saw (policy mode asks about it; allowlist mode never asks, and
// with git allowed, git difftool -y -x 'sh -c …' HEAD planted .envrc).
// "" when the line runs none.
func runsToolOf(parts []policy.Part) string {
	for _, p := range parts {
		if len(p.Argv) == 0 || filepath.Base(p.Argv[0]) != "git" {
			continue
		}
		if sub := gitSubcommand(p.Argv[1:]); sub == "difftool" || sub == "mergetool" {
			return "git " + sub + " runs a diff or merge tool (-x/--extcmd, --tool, or the one git's config names) that no word of the line names"
		}
	}
	return ""
}
