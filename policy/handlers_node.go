package policy

import "strings"

// npm, yarn, pnpm, bun and npx: scripts of the project are its own build;
// installs, registries and fetched tools are not.

var npmSafeGlobal = []string{"-s", "--silent", "-q", "--quiet", "--if-present", "--no-color", "--color", "-ws",
	"--workspaces", "--loglevel", "--ignore-scripts", "--no-audit", "--no-fund", "--offline", "--prefer-offline",
	"--no-progress", "-w", "--workspace", "--include-workspace-root", "-d", "--verbose", "-dd", "--json", "--parseable",
	"-p", "--long", "-l", "--all", "-a", "--depth", "--omit", "--include", "--production", "--dev", "--save-dev", "-D",
	"--save-exact", "-E", "--no-save", "-r", "--recursive", "--parallel", "--stream", "--no-bail", "--bail",
	"--workspace-root", "--filter", "--sort", "--reporter", "--aggregate-output", "--resume-from", "--changed-files-ignore-pattern"}

// npmOptions judges npm-style options before "--" and returns the
// operands. An option that changes configuration asks.
func npmOptions(x *cmdCtx, args []word, tool string) []word {
	var ops []word
	for i := 0; i < len(args); i++ {
		a := args[i].val
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") {
			ops = append(ops, args[i])
			continue
		}
		name, _, _ := strings.Cut(a, "=")
		switch {
		case name == "--registry" || strings.Contains(name, "registry") || name == "--userconfig" || name == "--globalconfig":
			x.add(Deny, RulePkgIndex, tool+" "+name+" installs or runs from another registry or configuration")
		case name == "--prefix" || name == "-C" || name == "--dir" || name == "--cwd":
			v := strings.TrimPrefix(a, name+"=")
			if v == a && i+1 < len(args) {
				v = args[i+1].val
				i++
			}
			x.readStr(v)
		case contains(npmSafeGlobal, name) || tool == "pnpm" && name == "-F":
			if npmValued(tool, name) && !strings.Contains(a, "=") {
				i++
			}
		case name == "-g" || name == "--global" || name == "--location":
			x.add(Ask, RulePkgInstall, tool+" --global changes the person's global packages")
		case strings.HasPrefix(name, "--") && !npmConfigRuns(name):
			// npm reads --key=value as configuration, and yarn, pnpm and
			// bun pass it to the script: only the keys that choose a
			// program, a shell, a file of settings or code to load change
			// what runs (npmConfigRuns); the rest (--coverage,
			// --frozen-lockfile, --watch=false) are plain settings.
		case scriptFlag(tool, ops, args[i]): // pnpmfilter.go: pnpm test -t "joins a room"
		default:
			x.add(Ask, RuleBuildOption, tool+" option "+name+" can change which program runs (npm reads any --key=value as configuration)")
		}
	}
	return ops
}

// npmValued reports whether a safe global option of tool takes the next
// word as its value. Only npm's -w/--workspace name a workspace; pnpm's -w
// is --workspace-root, a flag, and yarn and bun have no -w: reading the
// next word as its value would hide the subcommand (pnpm -w dlx PKG) from
// judgment. pnpm's -F is --filter.
func npmValued(tool, name string) bool {
	switch name {
	case "--loglevel", "--depth", "--omit", "--include", "--filter", "--reporter", "--resume-from":
		return true
	case "-w", "--workspace":
		return tool == "npm"
	case "-F":
		return tool == "pnpm"
	}
	return false
}

var npmDeny = wordSet{words: []string{"publish", "unpublish", "deprecate", "dist-tag", "owner", "access", "token", "login",
	"logout", "adduser", "add-user", "team", "org", "star", "unstar", "hook", "profile"}}

func npmCmd(x *cmdCtx, args []word) {
	x.ranBuildFiles("npm", func(b string) bool { return b == "package.json" }, packageScripts)
	ops := npmOptions(x, args[1:], "npm")
	if len(ops) == 0 {
		x.add(Allow, RuleReadOnly, "prints npm usage")
		return
	}
	sub := ops[0].val
	switch {
	case npmDeny.has(sub):
		x.add(Deny, RulePublish, "npm "+sub+" publishes or changes the person's registry account")
	case sub == "test" || sub == "t" || sub == "tst" || sub == "start" || sub == "stop" || sub == "restart" || sub == "run" || sub == "run-script" || sub == "rum" || sub == "urn":
		x.add(Allow, RuleBuildProject, "npm "+sub+" runs the project's own script")
		x.inWorkspace()
		x.scriptArgPaths(args[1:]) // pol7_installs.go: npm run build -- --outDir ~/.config/app
		if (sub == "run" || sub == "run-script" || sub == "rum" || sub == "urn") && len(ops) > 1 {
			npmScriptName(x, ops[1].val)
		}
	case sub == "ls" || sub == "list" || sub == "la" || sub == "ll" || sub == "explain" || sub == "why" ||
		sub == "root" || sub == "prefix" || sub == "bin" || sub == "help" || sub == "help-search" || sub == "query" || sub == "-v" || sub == "--version":
		x.add(Allow, RuleReadOnly, "npm "+sub+" prints information")
	case npmRegistryReads.has(sub):
		registryRead(x, "npm "+sub)
	case sub == "exec" || sub == "x":
		npxCmd(x, append([]word{{val: "npx", static: true}}, args[2:]...))
	case sub == "version":
		if len(ops) == 1 {
			x.add(Allow, RuleReadOnly, "prints versions")
		} else {
			x.add(Ask, RuleGitOther, "npm version changes package.json and tags the repository")
		}
	case npmConfigGet(ops): // gitidentity.go
		x.add(Allow, RuleReadOnly, "npm config get prints one setting")
	case sub == "pkg" && len(ops) > 1 && ops[1].val == "get":
		x.add(Allow, RuleReadOnly, "reads package.json")
	case sub == "pack" || sub == "rebuild" || sub == "rb" || sub == "prune" || sub == "dedupe" || sub == "ddp" || sub == "init" || sub == "create" || sub == "link" || sub == "ln":
		x.add(Ask, RulePkgInstall, "npm "+sub+" changes installed packages or runs their scripts")
	default:
		x.add(Ask, RulePkgInstall, "npm "+sub+" installs packages, talks to the registry, or is not known to the policy")
	}
}

// npmScriptName asks for scripts whose names say they publish or deploy.
func npmScriptName(x *cmdCtx, name string) {
	n := strings.ToLower(name)
	for _, bad := range []string{"publish", "deploy", "release", "push", "upload", "ship"} {
		if strings.Contains(n, bad) {
			x.add(Ask, RulePublish, "the script "+quoteShort(name)+" sounds like it publishes or deploys")
		}
	}
}

var yarnBuiltins = wordSet{words: []string{"add", "remove", "install", "upgrade", "up", "dlx", "npm", "config", "set", "plugin",
	"global", "link", "unlink", "pack", "import", "init", "create", "exec", "node", "info", "cache",
	"constraints", "patch", "patch-commit", "version", "workspace", "workspaces", "dedupe", "rebuild", "stage",
	"unplug", "login", "logout", "owner", "tag", "team", "upgrade-interactive", "generate-lock-entry", "policies",
	"autoclean", "audit", "outdated", "search", "explain", "sdks", "bin", "why", "list", "licenses", "check", "publish",
	"self-update", "upgrade-interactive", "global", "env", "prune", "npx", "dedupe"}}

func yarnCmd(x *cmdCtx, args []word) {
	x.ranBuildFiles("yarn", func(b string) bool { return b == "package.json" }, packageScripts)
	ops := npmOptions(x, args[1:], "yarn")
	if len(ops) == 0 {
		x.add(Ask, RulePkgInstall, "yarn with no command installs packages")
		return
	}
	sub := ops[0].val
	switch {
	case sub == "publish" || sub == "login" || sub == "owner" || sub == "team" || (sub == "npm" && len(ops) > 1 && (ops[1].val == "publish" || ops[1].val == "login" || ops[1].val == "tag")):
		x.add(Deny, RulePublish, "yarn "+sub+" publishes or changes the person's registry account")
	case sub == "why" || sub == "list" || sub == "bin" || sub == "licenses" || sub == "explain" || sub == "check":
		x.add(Allow, RuleReadOnly, "yarn "+sub+" prints information")
	case sub == "dlx":
		dlxCmd(x, "yarn dlx", args)
	case sub == "exec" || sub == "node":
		x.add(Ask, RulePkgRemoteExec, "yarn "+sub+" runs code the request does not show")
	case yarnBuiltins.has(sub):
		x.add(Ask, RulePkgInstall, "yarn "+sub+" installs packages or changes configuration")
	default:
		if sub == "run" {
			if len(ops) < 2 {
				x.add(Allow, RuleReadOnly, "lists scripts")
				return
			}
			sub = ops[1].val
		}
		x.add(Allow, RuleBuildProject, "yarn runs the project's own script "+quoteShort(sub))
		x.inWorkspace()
		x.scriptArgPaths(args[1:]) // pol7_installs.go
		npmScriptName(x, sub)
	}
}

func pnpmCmd(x *cmdCtx, args []word) {
	x.ranBuildFiles("pnpm", func(b string) bool { return b == "package.json" }, packageScripts)
	ops := npmOptions(x, args[1:], "pnpm")
	if len(ops) == 0 {
		x.add(Allow, RuleReadOnly, "prints pnpm usage")
		return
	}
	sub := ops[0].val
	switch sub {
	case "publish", "login", "logout", "adduser", "owner", "dist-tag", "deprecate", "unpublish":
		x.add(Deny, RulePublish, "pnpm "+sub+" publishes or changes the person's registry account")
	case "test", "t", "run", "start":
		x.add(Allow, RuleBuildProject, "pnpm "+sub+" runs the project's own script")
		x.inWorkspace()
		x.scriptArgPaths(args[1:]) // pol7_installs.go
		if sub == "run" && len(ops) > 1 {
			npmScriptName(x, ops[1].val)
		}
	case "ls", "list", "why", "root", "bin", "help":
		x.add(Allow, RuleReadOnly, "pnpm "+sub+" prints information")
	case "dlx":
		dlxCmd(x, "pnpm dlx", args)
	case "exec", "x", "create":
		x.add(Ask, RulePkgRemoteExec, "pnpm "+sub+" runs code the request does not show")
	case "install", "i", "add", "update", "up", "remove", "rm", "uninstall", "link", "unlink", "import", "rebuild", "prune", "fetch", "setup", "env", "config", "store", "patch", "patch-commit", "audit", "outdated", "pack", "init", "server", "deploy", "licenses", "approve-builds",
		"self-update", "install-test", "it", "dedupe", "doctor", "cat-file", "cat-index", "find-hash", "ignored-builds", "recursive", "multi", "m", "add-user", "whoami", "view", "info", "search":
		x.add(Ask, RulePkgInstall, "pnpm "+sub+" installs packages or changes configuration")
	default:
		x.add(Allow, RuleBuildProject, "pnpm runs the project's own script "+quoteShort(sub))
		x.inWorkspace()
		x.scriptArgPaths(args[1:]) // pol7_installs.go
		npmScriptName(x, sub)
	}
}

func bunCmd(x *cmdCtx, args []word) {
	x.ranBuildFiles("bun", func(b string) bool { return b == "package.json" }, packageScripts)
	if len(args) > 1 && args[1].val == "build" && bunBuild(x, args) { // bunfiles.go
		return
	}
	ops := npmOptions(x, args[1:], "bun")
	if len(ops) == 0 {
		x.add(Deny, RuleShellStdin, "bun with no arguments starts a REPL")
		return
	}
	sub := ops[0].val
	switch sub {
	case "test":
		x.add(Allow, RuleBuildProject, "bun test runs the project's tests")
		x.inWorkspace()
	case "run":
		if len(ops) > 1 && !strings.ContainsAny(ops[1].val, "/.") {
			x.add(Allow, RuleBuildProject, "bun run runs the project's own script")
			x.inWorkspace()
			npmScriptName(x, ops[1].val)
			return
		}
		if len(ops) > 1 && ops[1].static && bunRunsFile(x, ops[1]) { // bunfiles.go
			return
		}
		x.add(Ask, RuleInterpScript, "bun run of a file runs code the request does not show")
	case "publish":
		x.add(Deny, RulePublish, "bun publish publishes a package")
	case "x":
		npxCmd(x, append([]word{{val: "bunx", static: true}}, ops[1:]...))
	case "install", "i", "add", "remove", "rm", "update", "link", "unlink", "pm", "create", "init", "upgrade", "patch":
		x.add(Ask, RulePkgInstall, "bun "+sub+" installs packages")
	default:
		if ops[0].static && !strings.ContainsAny(sub, "/.") && !bunCommands.has(sub) {
			// bun NAME is bun run NAME: a package.json script or an
			// installed bin (node_modules/.bin/tsc), as for bun run.
			x.add(Allow, RuleBuildProject, "bun "+sub+" runs the project's own script or installed tool")
			x.inWorkspace()
			npmScriptName(x, sub)
			return
		}
		if ops[0].static && strings.ContainsAny(sub, "/.") && bunRunsFile(x, ops[0]) { // bunfiles.go: bun src/cli.ts
			return
		}
		x.add(Ask, RuleInterpScript, "bun "+sub+" runs code the request does not show")
	}
}

// bunCommands are bun's own commands: any other plain name is bun run NAME.
var bunCommands = wordSet{words: []string{"run", "test", "x", "repl", "exec", "install", "i", "add", "a", "remove", "rm",
	"update", "audit", "outdated", "link", "unlink", "publish", "patch", "patch-commit", "pm", "info", "why", "build",
	"init", "create", "c", "upgrade", "feedback", "completions", "discord", "help", "getcompletes"}}

// npmConfigRuns are the npm configuration keys that choose a program, a
// shell, a settings file, code to load or where files go. nopt, npm's
// option reader, takes any unambiguous prefix of a key and "--no-KEY", so
// a name that is a prefix of one of them, or holds one of these words,
// counts as that key.
func npmConfigRuns(name string) bool {
	keys := [...]string{"script-shell", "shell", "node-options", "node-gyp", "userconfig", "globalconfig", "prefix", "registry",
		"editor", "browser", "git", "init-module", "onload-script", "cache", "tmp", "cafile", "cert", "key", "proxy",
		"https-proxy", "noproxy", "scope", "workspaces-update", "unsafe-perm", "user", "call", "package", "yes", "global",
		"location", "sign-git-tag", "sign-git-commit", "tag-version-prefix", "store-dir", "virtual-store-dir",
		"modules-dir", "config", "import", "require", "loader", "preload", "hooks", "pnpmfile", "global-pnpmfile", "lockfile-dir",
		"install-links", "foreground-scripts", "script", "exec", "cwd", "dir", "filter", "npmrc", "rc", "auth", "token"}
	words := [...]string{"shell", "config", "registry", "script", "node-option", "prefix", "preload", "require", "loader",
		"pnpmfile", "npmrc", "auth", "token", "exec", "hook", "dir", "path", "home", "global"}
	n := strings.ToLower(strings.TrimPrefix(name, "--"))
	n = strings.TrimPrefix(n, "no-")
	if n == "" {
		return true
	}
	for _, w := range words {
		if strings.Contains(n, w) {
			return true
		}
	}
	for _, k := range keys {
		if strings.HasPrefix(k, n) {
			return true
		}
	}
	return false
}

// npxDevTools are the dev tools a JavaScript project runs through npx or
// bunx by their own name (the package and its program share the name, or
// npx maps it: tsc is typescript's): type checkers, linters, formatters,
// test runners and bundlers of the project.
var npxDevTools = wordSet{words: []string{"tsc", "eslint", "prettier", "vitest", "jest", "playwright", "next", "tsx", "ts-node",
	"vite", "webpack", "rollup", "esbuild", "biome", "mocha", "nx", "turbo", "lerna", "stylelint", "svelte-check", "vue-tsc",
	"astro", "nuxi", "tailwindcss", "ava", "c8", "nyc", "knip", "depcheck", "madge", "oxlint", "tsup", "vue-cli-service", "ng", "cypress"}}
