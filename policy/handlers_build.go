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
	for _, n := range []string{"tsc", "eslint", "prettier", "jest", "vitest", "mocha", "golangci-lint", "staticcheck",
		"rustfmt", "mypy", "ruff", "black", "flake8", "pylint", "isort", "rspec", "ctest", "swiftlint", "ktlint",
		"clippy-driver", "govulncheck", "revive", "biome", "stylelint", "gopls", "pyright"} {
		handlers[n] = projectTool
	}
	for _, n := range []string{"dotnet", "swift", "mix", "zig", "mvn", "gradle", "bazel", "bazelisk", "cmake", "ninja", "meson", "just", "deno", "rake", "bundle", "composer", "poetry", "pdm", "hatch", "sbt", "lein", "stack", "cabal", "dune", "elm", "flutter", "dart"} {
		handlers[n] = subcommandTool
	}
}

// inWorkspace asks unless the command runs inside the workspace.
func (x *cmdCtx) inWorkspace() {
	x.readStr(".")
}

// projectTool allows a linter, formatter or test runner of the project.
func projectTool(x *cmdCtx, args []word) {
	x.add(Allow, RuleBuildProject, args[0].val+" checks or formats the project")
	x.inWorkspace()
	for _, w := range args[1:] {
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
	x.add(Ask, RuleBuildOption, args[0].val+": only its plain build and test forms are allowed without asking")
}

var goBuildCmds = wordSet{words: []string{"build", "test", "vet", "list", "run", "install", "fmt", "fix", "doc"}}

func goCmd(x *cmdCtx, args []word) {
	rest := args[1:]
	if len(rest) > 0 && (rest[0].val == "-C" || strings.HasPrefix(rest[0].val, "-C=")) {
		dir := strings.TrimPrefix(rest[0].val, "-C=")
		if rest[0].val == "-C" && len(rest) > 1 {
			x.read(rest[1])
			rest = rest[2:]
		} else {
			x.readStr(dir)
			rest = rest[1:]
		}
	}
	if len(rest) == 0 {
		x.add(Allow, RuleReadOnly, "prints go usage")
		return
	}
	sub := rest[0].val
	sargs := rest[1:]
	switch {
	case sub == "version" || sub == "help" || sub == "doc" || sub == "-h" || sub == "--help":
		x.add(Allow, RuleReadOnly, "prints go information")
		return
	case sub == "env":
		if hasOpt(sargs, "wu") {
			x.add(Deny, RulePersist, "go env -w writes the person's Go configuration, which runs in later builds")
			return
		}
		x.add(Allow, RuleReadOnly, "prints go environment")
		return
	case sub == "mod":
		if len(sargs) > 0 {
			switch sargs[0].val {
			case "graph", "why", "verify", "edit", "init", "tidy", "download", "vendor":
				x.add(Allow, RuleBuildProject, "go mod "+sargs[0].val+" maintains the project's modules (downloads run no code)")
				x.inWorkspace()
				for i, a := range sargs[1:] {
					if a.val == "-o" && i+2 < len(sargs) {
						x.write(word{val: sargs[i+2].val + "/glob-match", static: sargs[i+2].static})
					}
					if v, ok := strings.CutPrefix(a.val, "-o="); ok {
						x.writeStr(v + "/glob-match")
					}
					if strings.HasPrefix(a.val, "-replace") && (strings.Contains(a.val, "=/") || strings.Contains(a.val, "=.") || strings.Contains(a.val, "=~")) {
						x.add(Ask, RuleBuildOption, "go mod edit -replace points a module at a directory")
					}
				}
				return
			}
		}
		x.add(Ask, RuleUnknownCommand, "a go mod command the policy does not know")
		return
	case sub == "tool" && len(sargs) > 0 && sargs[0].val == "cover":
		x.add(Allow, RuleBuildProject, "go tool cover reports coverage")
		x.inWorkspace()
		for _, a := range sargs[1:] {
			if v, ok := strings.CutPrefix(a.val, "-o="); ok {
				x.writeStr(v)
			}
			if strings.HasPrefix(a.val, "-html") && !hasOpt(sargs, "", "-o") {
				x.add(Ask, RuleBuildOption, "go tool cover -html opens a browser")
			}
		}
		for i, a := range sargs {
			if a.val == "-o" && i+1 < len(sargs) {
				x.write(sargs[i+1])
			}
		}
		return
	case sub == "generate":
		// go generate runs the project's //go:generate directives: the
		// project's own code, like its build.
		x.ranBuildFiles("go generate", func(b string) bool { return strings.HasSuffix(b, ".go") }, goGenerateCommands)
		x.sandboxedCode("go generate runs the project's own generators", RuleBuildOption, "go generate runs commands the request does not show, and the sandbox is off")
		x.inWorkspace()
		goFlags(x, sargs)
		return
	case sub == "get" || sub == "install" || sub == "work" || sub == "tool" || sub == "bug" || sub == "telemetry":
		if sub == "install" || sub == "get" {
			x.add(Ask, RulePkgInstall, "go "+sub+" downloads and installs modules")
		} else {
			x.add(Ask, RuleBuildOption, "go "+sub+" runs commands the request does not show")
		}
		goFlags(x, sargs)
		return
	case sub == "clean":
		x.inWorkspace()
		if hasOpt(sargs, "", "-cache", "-modcache", "-fuzzcache", "-i") {
			x.add(Ask, RuleBuildOption, "go clean of shared caches outside the workspace")
			return
		}
		x.add(Allow, RuleBuildProject, "removes build outputs")
		return
	case !goBuildCmds.has(sub):
		x.add(Ask, RuleUnknownCommand, "go "+sub+" is not a go command the policy knows")
		return
	}
	x.add(Allow, RuleBuildProject, "go "+sub+" builds or tests the project")
	x.inWorkspace()
	ops := goFlags(x, sargs)
	if sub == "run" || sub == "install" {
		for _, o := range ops {
			if strings.Contains(o.val, "@") {
				if sub == "run" {
					x.add(Deny, RulePkgRemoteExec, "go run "+o.val+" downloads and runs remote code")
				}
				return
			}
			if !strings.HasPrefix(o.val, ".") && !strings.HasPrefix(o.val, "/") && !strings.HasSuffix(o.val, ".go") && strings.Contains(strings.SplitN(o.val, "/", 2)[0], ".") {
				x.add(Ask, RulePkgRemoteExec, "go run of a package outside the project")
			}
			if sub == "run" {
				break // the rest are the program's arguments
			}
		}
	}
	for _, o := range ops {
		if strings.HasPrefix(o.val, "/") || strings.HasPrefix(o.val, "~") || strings.HasPrefix(o.val, "..") {
			x.read(o)
		}
	}
}

// goFlags judges go build flags and returns the operands.
func goFlags(x *cmdCtx, sargs []word) []word {
	var ops []word
	for i := 0; i < len(sargs); i++ {
		a := sargs[i].val
		if !strings.HasPrefix(a, "-") || a == "-args" || a == "--" {
			ops = append(ops, sargs[i])
			continue
		}
		name, val, has := strings.Cut(strings.TrimLeft(a, "-"), "=")
		name = strings.TrimPrefix(name, "test.")
		takesVal := contains([]string{"o", "exec", "toolexec", "vettool", "coverprofile", "cpuprofile", "memprofile",
			"blockprofile", "mutexprofile", "trace", "outputdir", "gocoverdir", "modfile", "overlay", "pgo", "ldflags", "gcflags",
			"asmflags", "gccgoflags", "run", "bench", "count", "timeout", "cpu", "p", "tags", "mod", "covermode",
			"coverpkg", "benchtime", "parallel", "skip", "fuzz", "fuzztime", "fuzzminimizetime", "list", "shuffle",
			"compiler", "buildmode", "installsuffix", "pkgdir", "C", "f",
			"memprofilerate", "blockprofilerate", "mutexprofilefraction", "reuse"}, name)
		if takesVal && !has && i+1 < len(sargs) {
			val = sargs[i+1].val
			i++
		}
		switch name {
		case "exec", "toolexec", "vettool":
			x.add(Deny, RuleBuildExec, "go -"+name+" runs an arbitrary program")
		case "o", "coverprofile", "cpuprofile", "memprofile", "blockprofile", "mutexprofile", "trace":
			x.buildOutput(word{val: val, static: true})
		case "outputdir", "pkgdir", "gocoverdir":
			x.writeStr(filepath.Join(val, "glob-match"))
		case "modfile", "overlay", "pgo":
			if val != "auto" && val != "off" {
				x.readStr(val)
			}
		case "ldflags", "gcflags", "asmflags", "gccgoflags":
			if strings.Contains(val, "extld") || strings.Contains(val, "-plugin") || strings.Contains(val, "linkshared") {
				x.add(Deny, RuleBuildExec, "an external linker or compiler plugin runs an arbitrary program")
			}
		case "compiler":
			x.add(Ask, RuleBuildOption, "an alternative compiler")
		}
	}
	return ops
}

func gofmtCmd(x *cmdCtx, args []word) {
	write := hasOpt(args[1:], "w", "-w")
	if write {
		x.add(Allow, RuleFileWrite, "formats files in place")
	} else {
		x.add(Allow, RuleReadOnly, "checks formatting")
	}
	for _, w := range operands(args[1:], "r", []string{"srcdir", "local"}) {
		if write {
			x.write(w)
		} else {
			x.read(w)
		}
	}
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
			if !makeBenignVars.has(name) {
				x.add(Ask, RuleBuildOption, "make variable "+name+" can change what the makefile runs")
			}
		default:
			t := strings.ToLower(a)
			for _, bad := range []string{"install", "deploy", "publish", "release", "push", "upload", "ship", "apply", "destroy"} {
				if strings.Contains(t, bad) {
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
	"help", "pkgid", "nextest", "llvm-cov", "expand", "fetch", "update", "generate-lockfile", "vendor"}}

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
	case sub == "install" || sub == "add" || sub == "remove" || sub == "search" || sub == "package" || sub == "uninstall":
		x.add(Ask, RulePkgInstall, "cargo "+sub+" downloads or installs crates")
	case hasOpt(rest, "", "--open"):
		x.add(Ask, RuleBuildOption, "cargo --open starts a browser")
	case sub == "" || cargoAllowed.has(sub):
		x.add(Allow, RuleBuildProject, "cargo "+sub+" builds or tests the project")
		x.inWorkspace()
	default:
		x.add(Ask, RuleUnknownCommand, "cargo "+sub+" is an external subcommand the policy does not know")
	}
}

func pytestCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleBuildProject, "pytest runs the project's tests")
	x.inWorkspace()
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		a := rest[i].val
		name, val, has := strings.Cut(a, "=")
		switch name {
		case "--basetemp", "--junitxml", "--junit-xml", "--html", "--result-log", "--report-log", "--cov-report", "--debug", "--resultlog", "--json-report-file":
			if !has && i+1 < len(rest) {
				val = rest[i+1].val
				i++
			}
			if name == "--cov-report" {
				_, val, _ = strings.Cut(val, ":")
			}
			if val != "" {
				if name == "--basetemp" {
					val += "/glob-match"
				}
				x.writeStr(val)
			}
		case "--pdb", "--trace", "--pdbcls":
			x.add(Ask, RuleShellStdin, "pytest --pdb opens an interactive debugger")
		case "--rootdir", "--confcutdir", "-c", "--config-file", "--ignore", "--log-file", "--cov-config":
			if !has && i+1 < len(rest) {
				val = rest[i+1].val
				i++
			}
			if name == "--log-file" {
				x.writeStr(val)
			} else {
				x.readStr(val)
			}
		case "-p", "-k", "-m", "-o", "-n", "-W", "--tb", "--maxfail", "--durations",
			"--deselect", "--ignore-glob", "--override-ini", "--import-mode", "--log-level",
			"--capture", "--dist", "--numprocesses", "--timeout", "-r", "--cov", "--color", "--count", "--randomly-seed", "--lfnf", "--last-failed-no-failures", "--show-capture", "--verbosity", "--junit-prefix":
			if !has && i+1 < len(rest) {
				i++
			}
		default:
			if !strings.HasPrefix(a, "-") {
				path := a
				if k := strings.Index(path, "::"); k >= 0 {
					path = path[:k]
				}
				x.read(word{val: path, static: rest[i].static})
			}
		}
	}
}

func pipCmd(x *cmdCtx, args []word) {
	ops := operands(args[1:], "rcei", []string{"requirement", "constraint", "index-url", "extra-index-url", "find-links", "trusted-host", "target", "prefix", "root", "python", "platform", "implementation", "src", "log", "cache-dir", "proxy", "cert", "client-cert", "timeout", "retries", "exists-action", "progress-bar", "format", "path"})
	sub := ""
	if len(ops) > 0 {
		sub = ops[0].val
	}
	// -f is --find-links for the commands that fetch; pip show -f lists files.
	fetching := sub != "show" && sub != "list" && sub != "freeze" && sub != "check" && sub != "help" && sub != "inspect" && sub != "uninstall" && sub != "cache" && sub != "config" && sub != "debug"
	if hasOpt(args[1:], "", "--index-url", "--extra-index-url", "--find-links", "--trusted-host", "--proxy", "--index") ||
		fetching && hasOpt(args[1:], "if", "-i", "-f") {
		x.add(Deny, RulePkgIndex, "pip from a custom index, host or proxy")
		return
	}
	if len(ops) == 0 {
		x.add(Allow, RuleReadOnly, "prints pip information")
		return
	}
	switch ops[0].val {
	case "list", "show", "freeze", "check", "help", "--version", "inspect", "debug":
		x.add(Allow, RuleReadOnly, "pip "+ops[0].val+" prints information")
	case "install", "download", "wheel", "uninstall":
		x.add(Ask, RulePkgInstall, "pip "+ops[0].val+" installs or fetches packages")
		for _, o := range ops[1:] {
			if strings.Contains(o.val, "://") || strings.HasPrefix(o.val, "git+") {
				x.add(Deny, RulePkgIndex, "pip install from a URL")
			}
		}
	default:
		x.add(Ask, RulePkgInstall, "pip "+ops[0].val+" is not judged in detail")
	}
}

// coverageCmd judges coverage.py: run is python under measurement; the
// reports read the data file and write reports in the workspace.
func coverageCmd(x *cmdCtx, args []word) {
	if len(args) < 2 {
		x.add(Allow, RuleReadOnly, "prints coverage usage")
		return
	}
	switch args[1].val {
	case "run":
		rest := args[2:]
		for len(rest) > 0 && strings.HasPrefix(rest[0].val, "-") && rest[0].val != "-m" {
			if strings.HasPrefix(rest[0].val, "--rcfile") || strings.HasPrefix(rest[0].val, "--data-file") {
				x.add(Ask, RuleBuildOption, "coverage run with another configuration or data file")
			}
			rest = rest[1:]
		}
		x.command(append([]word{{val: "python", static: true}}, rest...), 1)
	case "report", "html", "xml", "json", "lcov", "erase", "combine", "debug", "annotate":
		x.add(Allow, RuleBuildProject, "coverage "+args[1].val+" reports on the project's tests")
		x.inWorkspace()
	default:
		x.add(Ask, RuleUnknownCommand, "a coverage command the policy does not know")
	}
}

// envRunner judges `uv run CMD`, `poetry run CMD`, `pdm run CMD`, `hatch
// run CMD` and `pipenv run CMD`: CMD run in the project's environment, so
// CMD is what is judged. Options that add packages or pick another
// interpreter ask. It reports whether args was such a form.
func envRunner(x *cmdCtx, args []word) bool {
	cmd, bad, ok := readEnvRunner(args)
	switch {
	case !ok:
		return false
	case bad != "":
		x.add(Ask, RuleBuildOption, args[0].val+" run option "+bad+" can add packages or change the interpreter")
	case len(cmd) == 0:
		x.add(Ask, RuleBuildOption, args[0].val+" run with no command")
	default:
		x.add(Allow, RuleBuildProject, args[0].val+" run runs a command in the project's environment")
		x.inWorkspace()
		x.command(cmd, 1)
	}
	return true
}

// readEnvRunner reads `uv run [opts] CMD` and its kin (envRunner) without
// judging it: ok is false when args is not such a form; bad is the first
// option the policy does not know; cmd is CMD, nil when there is none.
func readEnvRunner(args []word) (cmd []word, bad string, ok bool) {
	switch args[0].val {
	case "uv", "poetry", "pdm", "hatch", "pipenv":
	default:
		return nil, "", false
	}
	if len(args) < 3 || args[1].val != "run" {
		return nil, "", false
	}
	rest := args[2:]
	for len(rest) > 0 && strings.HasPrefix(rest[0].val, "-") {
		switch name, _, _ := strings.Cut(rest[0].val, "="); name {
		case "--frozen", "--locked", "--no-sync", "--offline", "-q", "--quiet", "--no-dev", "--all-extras", "--all-packages", "-v", "--verbose":
		case "--extra", "--group", "--package", "--env", "-e", "--directory", "--project":
			if !strings.Contains(rest[0].val, "=") {
				if len(rest) < 2 {
					return nil, "", true // the option's value is missing: no command
				}
				rest = rest[1:]
			}
		default:
			return nil, rest[0].val, true
		}
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return nil, "", true
	}
	return rest, "", true
}

// loadsCodeOption reports whether a long option names code or settings
// to load (--config, --plugin, --require, --loader, --rulesdir,
// --resolve-plugins-relative-to), spelled whole, with a value, or as any
// prefix of three letters or more: many option parsers (yargs, nopt,
// Python's argparse, GNU getopt) take an unambiguous prefix, so --confi
// is --config.
func loadsCodeOption(v string) bool {
	if strings.HasPrefix(v, "-J") {
		return true // javac -J-javaagent:x.jar: options of the JVM that runs the tool
	}
	if !strings.HasPrefix(v, "--") && len(v) > 2 && strings.HasPrefix(v, "-") {
		// single-dash long options (javac -processorpath, -processor,
		// -Xplugin:, kotlinc -Xplugin=, clang-tidy -load=) that load a
		// processor, plugin or agent into the compiler or checker
		name := strings.ToLower(v[1:])
		for _, o := range [...]string{"processor", "plugin", "agent", "load"} {
			if strings.Contains(name, o) {
				return true
			}
		}
		return false
	}
	if !strings.HasPrefix(v, "--") {
		return false
	}
	name, _, _ := strings.Cut(v[2:], "=")
	for _, o := range [...]string{"config", "plugin", "plugins", "rulesdir", "require", "loader", "resolve-plugins-relative-to",
		"import", "experimental-loader", "setup-files", "setupfiles", "globalsetup", "global-setup", "preset", "transform"} {
		if strings.HasPrefix(name, o) || len(name) >= 3 && strings.HasPrefix(o, name) {
			return true
		}
	}
	return false
}
