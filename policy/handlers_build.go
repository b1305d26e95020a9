package policy

import (
	"path/filepath"
	"strings"
)

// The project's own build and test tools. They run project code, which the
// sandbox contains; the policy checks the options that would run something
// else or write elsewhere.

// addBuildHandlers registers the project's build and test tools.
func addBuildHandlers(handlers map[string]handler) {
	handlers["go"] = goCmd
	handlers["gofmt"] = gofmtCmd
	handlers["goimports"] = gofmtCmd
	handlers["npm"] = npmCmd
	handlers["yarn"] = yarnCmd
	handlers["pnpm"] = pnpmCmd
	handlers["bun"] = bunCmd
	handlers["npx"] = npxCmd
	handlers["pnpx"] = npxCmd
	handlers["bunx"] = npxCmd
	handlers["make"] = makeCmd
	handlers["gmake"] = makeCmd
	handlers["cargo"] = cargoCmd
	handlers["pytest"] = pytestCmd
	handlers["py.test"] = pytestCmd
	handlers["pip"] = pipCmd
	handlers["coverage"] = coverageCmd
	handlers["jupyter"] = jupyterCmd // notebooks.go
	handlers["pip3"] = pipCmd
	handlers["uv"] = func(x *cmdCtx, a []word) {
		if envRunner(x, a) {
			return
		}
		if len(a) > 2 && a[1].val == "pip" && (a[2].val == "list" || a[2].val == "show" || a[2].val == "freeze" || a[2].val == "check" || a[2].val == "tree") {
			x.add(Allow, RuleReadOnly, "uv pip "+a[2].val+" prints information")
			return
		}
		if len(a) == 2 && (a[1].val == "version" || a[1].val == "--version") || len(a) > 1 && a[1].val == "tree" {
			x.add(Allow, RuleReadOnly, "uv prints information")
			return
		}
		x.add(Ask, RulePkgInstall, "uv installs packages and runs tools")
		if hasOpt(a[1:], "", "--index-url", "--extra-index-url", "--index", "-i", "--find-links") {
			x.add(Deny, RulePkgIndex, "installs from a custom package index")
		}
	}
	handlers["uvx"] = func(x *cmdCtx, a []word) { x.add(Ask, RulePkgRemoteExec, "uvx fetches and runs a tool") }
	handlers["pipx"] = func(x *cmdCtx, a []word) { x.add(Ask, RulePkgRemoteExec, "pipx installs and runs tools") }
	for _, n := range projectTools {
		handlers[n] = projectTool
	}
	for _, n := range []string{"dotnet", "swift", "mix", "zig", "mvn", "gradle", "bazel", "bazelisk", "cmake", "ninja", "meson", "just", "deno", "rake", "bundle", "composer", "poetry", "pdm", "hatch", "pipenv", "rye", "sbt", "lein", "stack", "cabal", "dune", "elm", "flutter", "dart"} {
		handlers[n] = subcommandTool
	}
}

// projectTools are linters, formatters and test runners of the project
// (projectTool); moreProjectTools (buildverbs_more.go) are more.
var projectTools = []string{"tsc", "eslint", "prettier", "jest", "vitest", "mocha", "golangci-lint", "staticcheck",
	"rustfmt", "mypy", "ruff", "black", "flake8", "pylint", "isort", "rspec", "ctest", "swiftlint", "ktlint",
	"clippy-driver", "govulncheck", "revive", "biome", "stylelint", "gopls", "pyright", "ty"}

// inWorkspace asks unless the command runs inside the workspace.
func (x *cmdCtx) inWorkspace() {
	x.readStr(".")
}

// projectTool allows a linter, formatter or test runner of the project.
func projectTool(x *cmdCtx, args []word) {
	x.add(Allow, RuleBuildProject, args[0].val+" checks or formats the project")
	x.inWorkspace()
	for i := 1; i < len(args); i++ {
		w := args[i]
		if span, file, ok := projectConfigOption(args[0].val, args, i); ok {
			if span > 0 && file.val != "" {
				x.read(file) // everyday.go: phpunit -c phpunit.xml, the project's own file
			}
			i += span - 1
			continue
		}
		if strings.HasPrefix(w.val, "@") {
			// an argument file (javac @args.txt, gcc @rsp): options nobody has seen
			x.add(Ask, RuleBuildOption, args[0].val+" "+quoteShort(w.val)+" reads its options from a file")
			continue
		}
		if w.val == "-script" && x.kotlinScript(args[0].val, args[i+1:]) { // kotlinscript.go
			return
		}
		if inlineCodeOption(args[0].val, w.val) {
			x.add(Ask, RuleInterpInline, args[0].val+" "+w.val+" runs inline code")
			continue
		}
		if strings.HasPrefix(w.val, "-") {
			if _, v, ok := strings.Cut(w.val, "="); ok && looksLikePath(v) {
				x.readStr(v)
			}
			if w.val == "-c" || w.val == "-r" || loadsCodeOption(w.val) {
				x.add(Ask, RuleBuildOption, args[0].val+" "+w.val+" loads code or configuration from elsewhere")
			}
			continue
		}
		x.read(w)
	}
}

// simpleBuildWords lists, per tool, the subcommands and bare flags whose
// plain use only builds or tests the project. Anything else (values,
// properties, plugins, tasks the policy does not know) asks.
var simpleBuildWords = lazy[map[string]map[string]bool]{build: func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"mvn":      setOf("test", "compile", "verify", "package", "clean", "validate", "test-compile", "-q", "--quiet", "-B", "--batch-mode", "-o", "--offline", "-e", "-U", "--no-transfer-progress", "-ntp"),
		"gradle":   setOf("test", "build", "check", "assemble", "clean", "compileJava", "compileTestJava", "lint", "--offline", "-q", "--quiet", "--no-daemon", "--info", "--stacktrace", "--console=plain"),
		"dotnet":   setOf("test", "build", "format", "--no-restore", "--nologo", "-v", "q", "minimal", "--verbosity"),
		"swift":    setOf("test", "build", "-v", "--parallel"),
		"mix":      setOf("test", "compile", "format", "credo", "--check-formatted"),
		"zig":      setOf("build", "test"),
		"deno":     setOf("test", "fmt", "lint", "check", "--check"),
		"dart":     setOf("test", "analyze", "format", "--output=none", "--set-exit-if-changed"),
		"flutter":  setOf("test", "analyze"),
		"bazel":    setOf("test", "build", "//..."),
		"bazelisk": setOf("test", "build", "//..."),
		"stack":    setOf("test", "build"),
		"cabal":    setOf("test", "build"),
		"dune":     setOf("test", "build"),
		"just":     setOf("test", "build", "lint", "fmt", "check"),
	}
}}

// subcommandTool allows the plain build and test forms of other build
// tools and asks for the rest.
func subcommandTool(x *cmdCtx, args []word) {
	if envRunner(x, args) {
		return
	}
	words := simpleBuildWords.get()[args[0].val]
	if len(args) > 1 && words != nil {
		ok := true
		for _, w := range args[1:] {
			if !words[w.val] {
				ok = false
				break
			}
		}
		if ok {
			x.add(Allow, RuleBuildProject, args[0].val+" builds or tests the project")
			x.inWorkspace()
			return
		}
	}
	if !x.c.sandbox && mvnInstallsLocal(args) { // mvninstall_off.go
		x.add(Ask, RuleBuildOption, mvnInstallOffReason)
		return
	}
	x.add(Ask, RuleBuildOption, args[0].val+": only its plain build and test forms are allowed without asking")
}

var makeBenignVars = wordSet{words: []string{"V", "VERBOSE", "DEBUG", "CI", "TEST", "TESTS", "RUN", "PKG", "Q", "NAME", "TAGS",
	"J", "JOBS", "RACE", "COVER", "FILTER", "SUITE", "TARGET", "ARCH", "OS",
	"GOOS", "GOARCH", "CGO_ENABLED", "RELEASE", "BUILD_TYPE", "NODE_ENV", "VERSION"}}

func makeCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleBuildProject, "make runs the project's own targets")
	rest := args[1:]
	files := map[string]bool{}
	for i, w := range rest {
		if (w.val == "-f" || w.val == "--file" || w.val == "--makefile") && i+1 < len(rest) {
			files[foldName(filepath.Base(rest[i+1].val))] = true
		} else if _, v, ok := strings.Cut(w.val, "="); ok && (strings.HasPrefix(w.val, "--file=") || strings.HasPrefix(w.val, "--makefile=")) {
			files[foldName(filepath.Base(v))] = true
		}
	}
	x.ranBuildFiles("make", func(b string) bool { return isMakefile(b) || files[b] }, makeCommands)
	dry := x.makeDryRunContained(rest) // makedryrun.go: make -n install in the sandbox
	dirSet := false
	for i := 0; i < len(rest); i++ {
		a := rest[i].val
		switch {
		case a == "-C" || a == "--directory" || a == "-f" || a == "--file" || a == "--makefile" || a == "-I" || a == "--include-dir":
			if i+1 < len(rest) {
				x.read(rest[i+1])
				if a == "-C" || a == "--directory" {
					dirSet = true
				}
				if a == "-I" || a == "--include-dir" {
					x.add(Ask, RuleBuildOption, "make -I reads makefiles from another directory")
				}
				i++
			}
		case strings.HasPrefix(a, "--directory=") || strings.HasPrefix(a, "--file=") || strings.HasPrefix(a, "--makefile="):
			_, v, _ := strings.Cut(a, "=")
			x.readStr(v)
			dirSet = dirSet || strings.HasPrefix(a, "--directory=")
		case strings.HasPrefix(a, "-C") && len(a) > 2 && !strings.HasPrefix(a, "--"):
			x.readStr(a[2:])
			dirSet = true
		case a == "-e" || a == "--environment-overrides" || strings.HasPrefix(a, "--eval") || a == "-E":
			x.add(Ask, RuleBuildOption, "make "+a+" changes what the makefile runs")
			if a == "-E" || a == "--eval" {
				i++
			}
		case a == "-j" || a == "--jobs" || a == "-l" || a == "--load-average":
			if i+1 < len(rest) && isDigits(rest[i+1].val) {
				i++
			}
		case a == "-o" || a == "-W" || a == "--old-file" || a == "--what-if" || a == "--assume-old" || a == "--assume-new" || a == "--new-file":
			i++
		case strings.HasPrefix(a, "--"):
			switch strings.SplitN(a, "=", 2)[0] {
			case "--jobs", "--keep-going", "--silent", "--quiet", "--dry-run", "--just-print", "--recon",
				"--always-make", "--no-print-directory", "--print-directory", "--output-sync", "--question",
				"--no-builtin-rules", "--no-builtin-variables", "--ignore-errors", "--touch", "--trace", "--debug",
				"--warn-undefined-variables", "--check-symlink-times", "--load-average", "--stop", "--no-keep-going",
				"--print-data-base", "--version", "--help", "--shuffle", "--old-file", "--what-if", "--new-file":
			default:
				x.add(Ask, RuleBuildOption, "a make option the policy does not know: "+a)
			}
		case strings.HasPrefix(a, "-"):
			if strings.Trim(a[1:], "jklsnBiqrRwStOdpv0123456789") != "" {
				x.add(Ask, RuleBuildOption, "a make option the policy does not know: "+a)
			}
		case strings.Contains(a, "="):
			name := strings.TrimRight(strings.SplitN(a, "=", 2)[0], ":+?!")
			if !makeBenignVars.has(name) && !makeVarValue(name, a, rest[i].static) { // envtools.go
				x.add(Ask, RuleBuildOption, "make variable "+name+" can change what the makefile runs")
			}
		default:
			t := strings.ToLower(a)
			for _, bad := range []string{"install", "deploy", "publish", "release", "push", "upload", "ship", "apply", "destroy"} {
				if strings.Contains(t, bad) && !dry {
					x.add(Ask, RulePublish, "the target "+quoteShort(a)+" sounds like it installs, publishes or deploys")
				}
			}
		}
	}
	if !dirSet {
		x.inWorkspace()
	}
}

var cargoAllowed = wordSet{words: []string{"test", "t", "build", "b", "check", "c", "clippy", "fmt", "doc", "d", "bench", "run", "r",
	"tree", "metadata", "clean", "fix", "new", "init", "locate-project", "verify-project", "read-manifest", "version",
	"help", "pkgid", "nextest", "llvm-cov", "expand", "fetch", "update", "generate-lockfile", "vendor",
	"udeps", "machete", "deny", "insta", "outdated", "hack", "semver-checks", "mutants", "bloat", "msrv"}} // devtools.go: external dev subcommands

func cargoCmd(x *cmdCtx, args []word) {
	rest := args[1:]
	sub := ""
	for i := 0; i < len(rest); i++ {
		a := rest[i].val
		switch {
		case strings.HasPrefix(a, "+") && rustChannel(a[1:]) && x.c.sandbox:
			// An official channel (+nightly, +1.79.0): rustup's own
			// toolchain, fetched from its own host through the proxy.
		case strings.HasPrefix(a, "+"):
			x.add(Ask, RuleBuildOption, "cargo "+a+" selects (and may download) another toolchain")
		case a == "--config" || strings.HasPrefix(a, "--config="):
			x.add(Deny, RuleBuildExec, "cargo --config can set a runner or wrapper that runs any program")
			i++
		case a == "-Z" || strings.HasPrefix(a, "-Z"):
			x.add(Ask, RuleBuildOption, "unstable cargo flags")
		case a == "--manifest-path" || a == "-C" || a == "--target-dir" || a == "--lockfile-path" || a == "--artifact-dir" || a == "--out-dir":
			if i+1 < len(rest) {
				if a == "--target-dir" || a == "--artifact-dir" || a == "--out-dir" {
					x.write(word{val: rest[i+1].val + "/glob-match", static: rest[i+1].static})
				} else {
					x.read(rest[i+1])
				}
				i++
			}
		case strings.HasPrefix(a, "--manifest-path=") || strings.HasPrefix(a, "--target-dir="):
			_, v, _ := strings.Cut(a, "=")
			if strings.HasPrefix(a, "--target-dir=") {
				x.writeStr(v + "/glob-match")
			} else {
				x.readStr(v)
			}
		case a == "--":
			i = len(rest)
		case strings.HasPrefix(a, "-"):
		default:
			if sub == "" {
				sub = a
			}
		}
	}
	switch {
	case sub == "publish" || sub == "login" || sub == "logout" || sub == "owner" || sub == "yank":
		x.add(Deny, RulePublish, "cargo "+sub+" publishes or changes the person's registry account")
	case sub == "search":
		registryRead(x, "cargo search")
	case sub == "install" || sub == "add" || sub == "remove" || sub == "package" || sub == "uninstall":
		x.add(Ask, RulePkgInstall, "cargo "+sub+" downloads or installs crates")
	case hasOpt(rest, "", "--open"):
		x.add(Ask, RuleBuildOption, "cargo --open starts a browser")
	case sub == "audit":
		cargoAudit(x, rest) // cargoaudit.go
	case sub == "" || cargoAllowed.has(sub):
		x.add(Allow, RuleBuildProject, "cargo "+sub+" builds or tests the project")
		x.inWorkspace()
	default:
		x.add(Ask, RuleUnknownCommand, "cargo "+sub+" is an external subcommand the policy does not know")
	}
}

// inlineCodeOption: an option that makes a compiler run the code it is
// given (kotlinc -e/-expression/-script), which is code execution.
func inlineCodeOption(tool, opt string) bool {
	switch filepath.Base(tool) {
	case "kotlinc", "kotlinc-jvm", "kotlin", "scalac", "scala", "groovyc", "groovy":
		name, _, _ := strings.Cut(strings.TrimLeft(opt, "-"), "=")
		return name == "e" || name == "expression" || name == "script" || name == "eval"
	}
	return false
}
