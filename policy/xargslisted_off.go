package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// xargs over the workspace's own file list with the sandbox off (issue
// 32, off28): `git ls-files '*.go' | xargs gofmt -l`, `fd -e py | xargs
// ruff check`, `find src -name '*.ex' | xargs wc -l | sort -n`.
//
// xargs alone asks off: its items are read at run time. When the stage
// feeding it (through head, tail, sort, uniq or grep filters) lists the
// workspace's own names, git ls-files, git diff --name-only, find with no
// action but -print, fd with no exec or format, rg -l/--files, grep -rl,
// ls, printf '%s\n' of workspace globs, or seq's numbers, the command
// xargs runs is judged as that command given one such name
// (xargsListedItem), the way its own line would be. The producer is a
// part of the line, judged where it reads (find ~, ls ../x ask there).
//
// Only programs that read, count, check or format the names they get
// (xargsListedTools; grep and rg only with -l, -c or -q, as inside the
// sandbox, so off is never looser than on) are judged so: rm, mv, sed -i, chmod and the rest
// over every tracked file keep asking, as do sh -c, interpreters and
// options xargs does not share with the stage the policy reads.
//
// A name that looks like an option (a tracked file named --x=/etc/y)
// reaches the tool as an option; the tools listed only read, count or
// format, and off the project's own test runs the same files, so this adds
// no reach the project's code does not have.

// xargsListedTools are the programs judged over a workspace list off.
var xargsListedTools = wordSet{words: []string{"grep", "egrep", "fgrep", "rg", "wc", "ls", "stat", "file", "du",
	"gofmt", "goimports", "prettier", "black", "ruff", "isort", "eslint", "basename", "dirname", "echo",
	"md5sum", "sha256sum", "sha1sum", "clang-format", "rustfmt", "realpath", "mypy", "pylint", "flake8",
	"pyflakes", "pytest", "shellcheck", "yamllint", "biome", "stylelint", "tsc", "golangci-lint", "staticcheck"}}

// listedFilters pass a producer's names through unchanged in kind.
var listedFilters = wordSet{words: []string{"head", "tail", "sort", "uniq", "grep"}}

// markListedXargs records every xargs stage fed a list of the workspace's
// own names (see above).
func (c *checkEnv) markListedXargs(f *syntax.File) {
	syntax.Walk(f, func(n syntax.Node) bool {
		b, ok := n.(*syntax.BinaryCmd)
		if !ok || b.Op != syntax.Pipe {
			return true
		}
		stages := pipeStages(b)
		for i := 1; i < len(stages); i++ {
			cons, ok := stages[i].Cmd.(*syntax.CallExpr)
			if !ok || len(stages[i].Redirs) > 0 {
				continue
			}
			if argv := c.staticArgv(cons); len(argv) < 2 || argv[0] != "xargs" {
				continue
			}
			if item, ok := c.listedProducer(stages[:i]); ok {
				if c.xargsListed == nil {
					c.xargsListed = map[*syntax.CallExpr]string{}
				}
				c.xargsListed[cons] = item
			}
		}
		return true
	})
}

// listedProducer reads the stages before an xargs stage: the last one
// that is not a filter must list workspace names; it returns the item
// that stands for one of them.
func (c *checkEnv) listedProducer(stages []*syntax.Stmt) (string, bool) {
	for i := len(stages) - 1; i >= 0; i-- {
		call, ok := stages[i].Cmd.(*syntax.CallExpr)
		if !ok || len(call.Assigns) > 0 {
			return "", false
		}
		argv := c.staticArgv(call)
		if len(argv) == 0 || len(argv) != len(call.Args) {
			return "", false
		}
		if listedFilters.has(argv[0]) && filterOfNames(argv) {
			continue
		}
		return listerItem(argv)
	}
	return "", false
}

// filterOfNames: head/tail -N, sort, uniq, grep PATTERN reading stdin.
func filterOfNames(argv []string) bool {
	ops := 0
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "-n" && argv[0] != "sort" && argv[0] != "grep" || a == "-e" && argv[0] == "grep":
			i++
		case strings.HasPrefix(a, "-"):
			if strings.ContainsAny(a, "fo=") && a != "-E" && a != "-F" { // grep -f FILE, sort -o FILE, --files0-from=
				return false
			}
			// grep filters its input only with these; -r, -R, -d,
			// --include … make it search the folder and print what
			// the files hold, which xargs would hand on as names.
			if argv[0] == "grep" && (len(a) < 2 || strings.Trim(a[1:], "viEFxw") != "") {
				return false
			}
		default:
			ops++
		}
	}
	return argv[0] == "grep" && ops == 1 || argv[0] != "grep" && ops == 0 || argv[0] == "grep" && ops == 0 && strings.Contains(strings.Join(argv, " "), " -e ")
}

// listerItem: whether argv lists the workspace's names, and a name that
// stands for one.
func listerItem(argv []string) (string, bool) {
	const item = "listed-file"
	has := func(opts ...string) bool {
		for _, a := range argv[1:] {
			for _, o := range opts {
				if a == o || strings.HasPrefix(a, o+"=") {
					return true
				}
			}
		}
		return false
	}
	words := func(bad ...string) bool {
		for _, a := range argv[1:] {
			for _, b := range bad {
				if strings.Contains(a, b) {
					return false
				}
			}
		}
		return true
	}
	switch argv[0] {
	case "git":
		if len(argv) > 1 && argv[1] == "ls-files" && words("format", "stage", "-s", "debug", "eol") {
			return item, true
		}
		if len(argv) > 2 && argv[1] == "diff" && has("--name-only") && words("output", "ext", "textconv", "format") {
			return item, true
		}
	case "find":
		for _, a := range argv[1:] {
			if strings.HasPrefix(a, "-") && (strings.Contains(a, "exec") || strings.Contains(a, "ok") || strings.Contains(a, "delete") ||
				strings.Contains(a, "printf") || strings.HasPrefix(a, "-f") && a != "-follow" || a == "-ls") {
				return "", false
			}
		}
		return item, true
	case "fd", "fdfind":
		if words("exec", "-x", "-X", "format", "list-details", "-l") {
			return item, true
		}
	case "rg":
		if has("-l", "--files", "--files-with-matches") && words("pre", "replace", "-r", "json") {
			return item, true
		}
	case "grep":
		if has("-l", "-rl", "-lr", "-Rl", "--files-with-matches") && words("-f", "--file") {
			return item, true
		}
	case "ls":
		if words("-l", "-n", "-g", "-o", "--format", "-m", "-x", "-C") {
			return item, true
		}
	case "printf":
		if len(argv) < 3 || strings.Trim(strings.NewReplacer(`\n`, "", `\0`, "", "%s", "").Replace(argv[1]), " ") != "" || !strings.Contains(argv[1], "%s") {
			return "", false
		}
		for _, a := range argv[2:] {
			if a == "" || strings.HasPrefix(a, "-") || strings.HasPrefix(a, "/") || strings.HasPrefix(a, "~") || strings.Contains(a, "..") || strings.Contains(a, "$") {
				return "", false
			}
		}
		return item, true
	case "seq":
		for _, a := range argv[1:] {
			if !isDigits(a) {
				return "", false
			}
		}
		return "1", true
	}
	return "", false
}

// xargsListedOff judges, with the sandbox off, an xargs stage fed the
// workspace's own names (markListedXargs): cmd, what xargs runs, is judged
// with one name in place of what xargs adds. false leaves the stage to the
// caller.
func (x *cmdCtx) xargsListedOff(cmd []word, repl string) bool {
	item, ok := x.c.xargsListed[x.call]
	if !ok || x.c.sandbox || len(cmd) == 0 || !allStatic(cmd) {
		return false
	}
	prog := cmd[0].val
	if b, ok := resolvedProgram(prog); ok {
		prog = b
	}
	tool, rest := prog, vals(cmd[1:])
	if (prog == "npx" || prog == "bunx") && len(rest) > 0 {
		tool, rest = rest[0], rest[1:]
	}
	if !xargsListedTools.has(tool) || !xargsNamesOnly(tool, rest) {
		return false // grep and rg print matching lines only with -l, -c, -q: as inside the sandbox (wrappers.go)
	}
	var argv []word
	if repl == "" {
		argv = append(append(argv, cmd...), word{val: item, static: true})
	} else {
		for _, w := range cmd {
			w.val = strings.ReplaceAll(w.val, repl, item)
			argv = append(argv, w)
		}
	}
	x.part.Wrappers = append(x.part.Wrappers, "xargs")
	x.command(argv, 8)
	return true
}
