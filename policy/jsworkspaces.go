package policy

import "strings"

// JavaScript monorepo forms (polcorp1206): a program run through pnpm by
// its name (pnpm vitest run -t "name": pnpm runs the program and hands it
// every word after its name), yarn's workspace commands (yarn workspace
// @app/web run lint, yarn workspaces foreach -A run build: the yarn
// command they name, in one or every workspace) and turbo, which runs the
// packages' own scripts.

// pnpmOwn are pnpm's own commands: a word here is never a program pnpm
// runs by its name.
var pnpmOwn = wordSet{words: []string{"publish", "login", "logout", "adduser", "owner", "dist-tag", "deprecate", "unpublish",
	"test", "t", "run", "start", "ls", "list", "why", "root", "bin", "help", "dlx", "exec", "x", "create", "install", "i",
	"add", "update", "up", "remove", "rm", "uninstall", "link", "unlink", "import", "rebuild", "prune", "fetch", "setup",
	"env", "config", "store", "patch", "patch-commit", "audit", "outdated", "pack", "init", "server", "deploy", "licenses",
	"approve-builds", "self-update", "install-test", "it", "dedupe", "doctor", "cat-file", "cat-index", "find-hash",
	"ignored-builds", "recursive", "multi", "m", "add-user", "whoami", "view", "info", "search", "node", "restart", "stop"}}

// pnpmProgram wraps pnpm's handler: `pnpm PROG args` where PROG is a
// program the policy knows (and no pnpm command) is judged as `PROG args`,
// the command pnpm runs; the project's package.json, if this line wrote
// it, is read first as for every pnpm line.
func pnpmProgram(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		if len(args) < 2 || !args[1].static || strings.HasPrefix(args[1].val, "-") || pnpmOwn.has(args[1].val) {
			prev(x, args)
			return
		}
		if _, known := handlerFor(args[1].val); !known {
			prev(x, args) // a script of package.json
			return
		}
		x.ranBuildFiles("pnpm", func(b string) bool { return b == "package.json" }, packageScripts)
		x.command(args[1:], 1)
	}
}

// yarnForeachOpts are yarn workspaces foreach's options; true takes the
// next word.
var yarnForeachOpts = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"-A": false, "--all": false, "-p": false, "--parallel": false, "-t": false,
		"--topological": false, "--topological-dev": false, "-i": false, "--interlaced": false, "-v": false, "--verbose": false,
		"-R": false, "--recursive": false, "-W": false, "--worktree": false, "--no-private": false, "--since": false,
		"--from": true, "--include": true, "--exclude": true, "-j": true, "--jobs": true}
}}

// yarnWorkspaces wraps yarn's handler: `yarn workspace NAME CMD…` and
// `yarn workspaces foreach [opts] CMD…` are judged as `yarn CMD…`;
// `yarn workspaces list` prints the workspaces.
func yarnWorkspaces(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		if len(args) < 3 || !args[1].static || !args[2].static {
			prev(x, args)
			return
		}
		switch {
		case args[1].val == "workspace" && len(args) > 3 && !strings.HasPrefix(args[2].val, "-"):
			prev(x, append([]word{args[0]}, args[3:]...))
			return
		case args[1].val == "workspaces" && args[2].val == "list" && len(args) == 3:
			x.add(Allow, RuleReadOnly, "yarn workspaces list prints the workspaces")
			return
		case args[1].val == "workspaces" && args[2].val == "foreach":
			i := 3
			for i < len(args) && strings.HasPrefix(args[i].val, "-") {
				name, _, has := strings.Cut(args[i].val, "=")
				takes, ok := yarnForeachOpts.get()[name]
				if !ok || !args[i].static {
					prev(x, args)
					return
				}
				if takes && !has {
					i++
				}
				i++
			}
			if i < len(args) {
				prev(x, append([]word{args[0]}, args[i:]...))
				return
			}
		}
		prev(x, args)
	}
}
