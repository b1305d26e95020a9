package policy

import (
	"net/url"
	"strings"
)

// Everyday work in every ecosystem, as agents issue it: Java (mvn with
// -Dtest and -pl), C and C++ (cmake, meson, ninja, gcc and clang), Ruby
// (bundle exec, rake, rails test), .NET, the version query of every
// package manager, pnpm exec, a project's virtualenv activate script,
// read-only viewers (fd, bat, delta) and health checks of a server the
// coder started on localhost. Each handler allows the plain build, test
// and inspection forms and leaves everything else to the tool's own
// handler or to asking: no handler here allows installing, publishing,
// running a program named by an option, or an option that names a path
// outside the workspace.

// addEcosystemHandlers registers, last, the handlers of this file; a
// handler that refines an earlier one keeps it for what it does not know.
func addEcosystemHandlers(handlers map[string]handler) {
	handlers["mvn"] = mvnCmd
	handlers["cmake"] = cmakeCmd
	handlers["meson"] = mesonCmd
	handlers["ninja"] = ninjaCmd
	for _, n := range []string{"gcc", "g++", "cc", "c++", "clang", "clang++"} {
		handlers[n] = compilerCmd
	}
	handlers["bundle"] = bundleCmd(handlers["bundle"])
	handlers["rake"] = rakeCmd(handlers["rake"])
	handlers["rails"] = railsCmd
	handlers["dotnet"] = dotnetCmd(handlers["dotnet"])
	for _, n := range []string{"npm", "pnpm", "yarn", "bun", "deno", "node", "composer", "bundle", "gem", "cargo", "rustc", "mvn", "gradle", "dotnet", "php", "ruby", "mix", "elixir", "swift", "go", "java", "javac", "kotlin", "kotlinc", "cmake", "meson", "ninja", "gcc", "clang", "uv", "poetry", "pip", "pip3"} {
		if h, ok := handlers[n]; ok {
			handlers[n] = versionQuery(h)
		}
	}
	handlers["pnpm"] = pnpmExec(handlers["pnpm"])
	for _, n := range []string{"source", "."} {
		if h, ok := handlers[n]; ok {
			handlers[n] = venvActivate(h)
		}
	}
	handlers["fd"] = fdCmd
	handlers["fdfind"] = fdCmd
	handlers["bat"] = viewerCmd
	handlers["batcat"] = viewerCmd
	handlers["delta"] = viewerCmd
	handlers["curl"] = localCurl(handlers["curl"])
	for _, n := range []string{"rubocop", "standardrb", "erb_lint", "brakeman", "phpstan", "phpcs", "phpcbf", "psalm",
		"pint", "clang-format", "cppcheck", "cpplint", "swiftformat", "shellcheck", "hadolint", "yamllint", "actionlint",
		"markdownlint", "detekt", "checkstyle", "google-java-format", "dotnet-format", "rustfmt", "cargo-clippy"} {
		if _, known := handlers[n]; !known {
			handlers[n] = projectTool
		}
	}
}

// rubyBinstubs are the programs Rails and Bundler generate into bin/: the
// project's own wrappers of the tool of that name.
var rubyBinstubs = wordSet{words: []string{"rails", "rake", "rspec", "bundle", "rubocop", "spring", "setup", "dev",
	"importmap", "jobs", "brakeman", "yarn", "webpack", "vite", "thrust", "ci"}}

// binstub reports whether every path is bin/NAME at the workspace root
// for a Ruby binstub name: run as the project's own code (inside the
// sandbox), not asked as a workspace program posing as NAME.
func binstub(c *checkEnv, paths []string) bool {
	for _, p := range paths {
		r := rel(p, c.ws)
		name, ok := strings.CutPrefix(r, "bin/")
		if !within(p, c.ws) || !ok || !rubyBinstubs.has(name) {
			return false
		}
	}
	return len(paths) > 0
}

// versionQuery answers `TOOL --version` / `-V` / `-version` (alone), and
// `-v` for the tools where -v alone means the version, as printing a
// version before the tool's own handler, which may read -v as something
// else (npm reads it as configuration). A `version` subcommand is left to
// the tool's handler: `yarn version` bumps the package's version.
func versionQuery(h handler) handler {
	return func(x *cmdCtx, args []word) {
		if len(args) == 2 && args[1].static {
			switch v := args[1].val; {
			case v == "--version" || v == "-V" || v == "-version",
				v == "-v" && dashVIsVersion.has(args[0].val):
				x.add(Allow, RuleReadOnly, "prints "+args[0].val+"'s version")
				return
			}
		}
		h(x, args)
	}
}

// dashVIsVersion are the tools whose -v alone prints their version.
var dashVIsVersion = wordSet{words: []string{"npm", "pnpm", "yarn", "bun", "node", "php", "ruby", "gcc", "clang", "mix", "elixir"}}

// mavenGoals build, test or inspect the project (no install, deploy,
// release, site or exec goal).
var mavenGoals = wordSet{words: []string{"test", "compile", "verify", "package", "clean", "validate", "test-compile",
	"failsafe:integration-test", "failsafe:verify", "dependency:tree", "dependency:list", "dependency:analyze", "spotless:check", "spotless:apply", "checkstyle:check",
	"pmd:check", "spotbugs:check", "jacoco:report", "surefire-report:report", "help:effective-pom", "versions:display-dependency-updates"}}

// mavenProps are -D properties that choose tests or skip checks.
var mavenProps = wordSet{words: []string{"test", "it.test", "skipTests", "skipITs", "maven.test.skip", "maven.javadoc.skip",
	"maven.source.skip", "jacoco.skip", "checkstyle.skip", "spotbugs.skip", "pmd.skip", "enforcer.skip", "gpg.skip",
	"surefire.failIfNoSpecifiedTests", "failIfNoTests", "surefire.useFile", "trimStackTrace", "style.color",
	"spotless.check.skip", "license.skip", "rat.skip", "dependency-check.skip", "junit.jupiter.execution.parallel.enabled",
	"groups", "excludedGroups", "surefire.rerunFailingTestsCount", "maven.test.failure.ignore"}}

// testPattern is a test selector: class, method and glob characters.
func testPattern(v string) bool {
	return plainToken(strings.NewReplacer("#", "", "*", "", "+", "", "$", "", "/", "").Replace(v)) && !strings.Contains(v, "..")
}

func mvnCmd(x *cmdCtx, args []word) {
	ok := len(args) > 1
	for i := 1; i < len(args) && ok; i++ {
		a := args[i]
		v := a.val
		switch {
		case !a.static:
			ok = false
		case mavenGoals.has(v), setOf("-q", "--quiet", "-B", "--batch-mode", "-o", "--offline", "-e", "--errors", "-U",
			"--update-snapshots", "--no-transfer-progress", "-ntp", "-am", "--also-make", "-amd", "-fae", "--fail-at-end",
			"-ff", "--fail-fast", "-X", "--debug", "-V", "--show-version", "-N", "--non-recursive")[v]:
		case v == "-pl" || v == "--projects" || v == "-T" || v == "--threads" || v == "-rf" || v == "--resume-from" || v == "-P" || v == "--activate-profiles":
			if i+1 >= len(args) || !plainToken(strings.NewReplacer("!", "", "/", "").Replace(args[i+1].val)) || strings.Contains(args[i+1].val, "..") {
				ok = false
			}
			i++
		case (strings.HasPrefix(v, "-T") || strings.HasPrefix(v, "-P")) && plainToken(strings.ReplaceAll(v[2:], "!", "")):
		case strings.HasPrefix(v, "-D"):
			k, val, _ := strings.Cut(v[2:], "=")
			ok = mavenProps.has(k) && (val == "" || testPattern(val))
		default:
			ok = false
		}
	}
	if ok {
		x.add(Allow, RuleBuildProject, "mvn builds or tests the project")
		x.inWorkspace()
		return
	}
	subcommandTool(x, args)
}

// cmakeCacheVars are CMAKE_* cache variables that choose a build type or
// a language standard; the others (compilers, launchers, toolchain
// files, module paths) choose which program runs. Project options (names
// without CMAKE_) only feed the project's own CMakeLists.
var cmakeCacheVars = wordSet{words: []string{"CMAKE_BUILD_TYPE", "CMAKE_EXPORT_COMPILE_COMMANDS", "CMAKE_CXX_STANDARD",
	"CMAKE_C_STANDARD", "CMAKE_CXX_STANDARD_REQUIRED", "CMAKE_CXX_EXTENSIONS", "CMAKE_POSITION_INDEPENDENT_CODE",
	"CMAKE_VERBOSE_MAKEFILE", "CMAKE_COLOR_DIAGNOSTICS", "CMAKE_UNITY_BUILD", "CMAKE_INTERPROCEDURAL_OPTIMIZATION",
	"CMAKE_MESSAGE_LOG_LEVEL", "CMAKE_CXX_FLAGS", "CMAKE_C_FLAGS"}}

func cmakeDefine(def string) bool {
	k, v, ok := strings.Cut(def, "=")
	k, _, _ = strings.Cut(k, ":") // -DNAME:BOOL=ON
	if !ok || !plainToken(k) {
		return false
	}
	if k == "CMAKE_CXX_FLAGS" || k == "CMAKE_C_FLAGS" {
		return flagsJudge(cFlag)(v)
	}
	if strings.HasPrefix(strings.ToUpper(k), "CMAKE_") {
		return cmakeCacheVars.has(k) && plainToken(v)
	}
	return plainToken(v)
}

// cmakeCommands map `cmake -E CMD` to the command it performs, judged as
// that command; other -E commands ask.
var cmakeCommands = lazy[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"rm": {"rm"}, "remove": {"rm", "-f"}, "remove_directory": {"rm", "-r"}, "make_directory": {"mkdir", "-p"},
		"touch": {"touch"}, "copy": {"cp"}, "copy_directory": {"cp", "-r"}, "rename": {"mv"}, "echo": {"echo"},
		"cat": {"cat"}, "sha256sum": {"sha256sum"}, "md5sum": {"md5sum"}, "create_symlink": {"ln", "-s"},
	}
}}

// cmakeCmd allows configuring (-S/-B, -D of a build type or project
// option, -G), building (--build DIR with -j/--target/--config) and
// listing; it asks for -P scripts, -E commands, --install and toolchain
// or compiler choices.
func cmakeCmd(x *cmdCtx, args []word) {
	if len(args) > 2 && args[1].val == "-E" {
		if as, known := cmakeCommands.get()[args[2].val]; known && args[2].static {
			x.add(Allow, RuleBuildProject, "cmake -E "+args[2].val+" is judged as the command it performs")
			inner := make([]word, 0, len(as)+len(args)-3)
			for _, a := range as {
				inner = append(inner, word{val: a, static: true})
			}
			x.nested(append(inner, args[3:]...), "cmake -E")
			return
		}
		x.add(Ask, RuleBuildOption, "cmake -E "+args[2].val+" is a command mode the policy does not follow")
		return
	}
	ok := len(args) > 1
	var dirs, outs []word
	for i := 1; i < len(args) && ok; i++ {
		a := args[i]
		v := a.val
		next := func() (word, bool) {
			if i+1 >= len(args) || !args[i+1].static {
				return word{}, false
			}
			i++
			return args[i], true
		}
		switch {
		case !a.static:
			ok = false
		case v == "-S":
			w, got := next()
			ok = got
			dirs = append(dirs, w)
		case v == "-B" || v == "--build":
			w, got := next()
			ok = got
			outs = append(outs, w)
		case strings.HasPrefix(v, "-S") || strings.HasPrefix(v, "-B"):
			w := word{val: v[2:], static: true}
			if v[1] == 'S' {
				dirs = append(dirs, w)
			} else {
				outs = append(outs, w)
			}
		case v == "-G":
			w, got := next()
			ok = got && (w.val == "Ninja" || w.val == "Unix Makefiles" || w.val == "Ninja Multi-Config")
		case v == "-D":
			w, got := next()
			ok = got && cmakeDefine(w.val)
		case strings.HasPrefix(v, "-D"):
			ok = cmakeDefine(v[2:])
		case v == "-j" || v == "--parallel" || v == "--target" || v == "-t" || v == "--config":
			w, got := next()
			ok = got && plainToken(w.val)
		case strings.HasPrefix(v, "-j") && numberish(v[2:]), strings.HasPrefix(v, "--parallel=") && numberish(v[11:]):
		case v == "--clean-first" || v == "-v" || v == "--verbose" || v == "-Wdev" || v == "-Wno-dev" || v == "--fresh" || v == "-LA" || v == "-L" || v == "-LH" || v == "-N":
		case v == "--":
			// Arguments for the native build tool: -jN, -k, targets.
			for _, r := range args[i+1:] {
				if !r.static || !(plainToken(r.val) || strings.HasPrefix(r.val, "-j") && numberish(r.val[2:])) {
					ok = false
				}
			}
			i = len(args)
		case !strings.HasPrefix(v, "-"):
			dirs = append(dirs, a)
		default:
			ok = false
		}
	}
	if !ok {
		subcommandTool(x, args)
		return
	}
	x.add(Allow, RuleBuildProject, "cmake configures or builds the project")
	x.inWorkspace()
	for _, d := range dirs {
		x.read(d)
	}
	for _, d := range outs {
		x.write(d)
	}
}

// mesonCmd allows setup, configure, compile and test of a build directory.
func mesonCmd(x *cmdCtx, args []word) {
	if len(args) < 2 {
		subcommandTool(x, args)
		return
	}
	sub := args[1].val
	switch sub {
	case "setup", "configure", "compile", "test", "introspect":
	default:
		subcommandTool(x, args)
		return
	}
	var dirs []word
	ok := true
	for i := 2; i < len(args) && ok; i++ {
		a := args[i]
		v := a.val
		switch {
		case !a.static:
			ok = false
		case v == "-C":
			if i+1 >= len(args) {
				ok = false
				break
			}
			i++
			dirs = append(dirs, args[i])
		case strings.HasPrefix(v, "-D"):
			k, val, has := strings.Cut(v[2:], "=")
			ok = has && plainToken(k) && plainToken(val) && k != "prefix" && !strings.HasSuffix(k, "dir")
		case strings.HasPrefix(v, "--buildtype=") || strings.HasPrefix(v, "--backend=ninja") || strings.HasPrefix(v, "--num-processes") ||
			v == "--print-errorlogs" || v == "-v" || v == "--verbose" || v == "--wipe" || v == "--reconfigure" || v == "--clean" ||
			strings.HasPrefix(v, "-j") || v == "--list" || v == "--suite" || v == "--no-rebuild" || strings.HasPrefix(v, "--suite="):
			if v == "--suite" {
				i++
			}
		case !strings.HasPrefix(v, "-") && plainToken(strings.ReplaceAll(v, "/", "")):
			dirs = append(dirs, a)
		default:
			ok = false
		}
	}
	if !ok {
		subcommandTool(x, args)
		return
	}
	x.add(Allow, RuleBuildProject, "meson "+sub+" builds or tests the project")
	x.inWorkspace()
	for _, d := range dirs {
		if sub == "test" || sub == "introspect" {
			x.read(d)
		} else {
			x.write(d)
		}
	}
}

// ninjaCmd allows building targets of a build directory.
func ninjaCmd(x *cmdCtx, args []word) {
	ok := true
	var dirs []word
	for i := 1; i < len(args) && ok; i++ {
		a := args[i]
		v := a.val
		switch {
		case !a.static:
			ok = false
		case v == "-C":
			if i+1 >= len(args) {
				ok = false
				break
			}
			i++
			dirs = append(dirs, args[i])
		case v == "-j" || v == "-k" || v == "-l":
			ok = i+1 < len(args) && numberish(args[i+1].val)
			i++
		case (strings.HasPrefix(v, "-j") || strings.HasPrefix(v, "-k") || strings.HasPrefix(v, "-l")) && numberish(v[2:]), v == "-v", v == "--verbose", v == "-n":
		case !strings.HasPrefix(v, "-") && plainToken(strings.ReplaceAll(v, "/", "")) && !strings.Contains(v, ".."):
		default:
			ok = false
		}
	}
	if !ok {
		subcommandTool(x, args)
		return
	}
	x.add(Allow, RuleBuildProject, "ninja builds the project")
	x.inWorkspace()
	for _, d := range dirs {
		x.write(d)
	}
}

// compilerCmd allows compiling and linking workspace sources: sources and
// include directories are read, -o is written; a plugin, a driver prefix
// (-B), a wrapper, a specs file, a response file or linker pass-through
// asks.
func compilerCmd(x *cmdCtx, args []word) {
	ok := len(args) > 1
	var reads, writes []word
	for i := 1; i < len(args) && ok; i++ {
		a := args[i]
		v := a.val
		switch {
		case !a.static:
			ok = false
		case v == "-o":
			if i+1 >= len(args) {
				ok = false
				break
			}
			i++
			writes = append(writes, args[i])
		case v == "-c" || v == "-S" || v == "-E" || v == "-shared" || v == "-static" || v == "-v" || v == "-M" || v == "-MM" || v == "-MD" || v == "-MMD":
		case v == "-x" || v == "-MF" || v == "-MT" || v == "-I" || v == "-L" || v == "-include":
			if i+1 >= len(args) {
				ok = false
				break
			}
			i++
			if v == "-MF" {
				writes = append(writes, args[i])
			} else if v != "-x" && v != "-MT" {
				reads = append(reads, args[i])
			}
		case strings.HasPrefix(v, "-I") || strings.HasPrefix(v, "-L"):
			reads = append(reads, word{val: v[2:], static: true})
		case strings.HasPrefix(v, "@"):
			ok = false // a response file holds more options, unseen
		case strings.HasPrefix(v, "-l") && plainToken(v[2:]):
		case strings.HasPrefix(v, "-"):
			ok = cFlag(v) || v == "-rdynamic" || v == "-nostdlib" || v == "-w"
		default:
			reads = append(reads, a)
		}
	}
	if !ok {
		x.add(Ask, RuleBuildOption, args[0].val+": only compiling workspace sources with everyday flags is allowed without asking")
		return
	}
	x.add(Allow, RuleBuildProject, args[0].val+" compiles the project's sources")
	for _, r := range reads {
		x.read(r)
	}
	for _, w := range writes {
		x.write(w)
	}
}

// bundleCmd judges `bundle exec CMD` as CMD (Bundler only sets up the
// project's gems) and `bundle check`/`list`/`show` as reads; the rest goes
// to the earlier handler.
func bundleCmd(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		if len(args) > 2 && args[1].val == "exec" && args[1].static {
			x.add(Allow, RuleBuildProject, "bundle exec runs a command with the project's gems")
			x.nested(args[2:], "bundle exec")
			return
		}
		if len(args) == 2 && (args[1].val == "check" || args[1].val == "list") {
			x.add(Allow, RuleReadOnly, "bundle "+args[1].val+" reads the project's gems")
			x.inWorkspace()
			return
		}
		prev(x, args)
	}
}

// rakeTasks build, test or lint the project (no db:, release or publish).
var rakeTasks = wordSet{words: []string{"test", "spec", "default", "build", "compile", "lint", "rubocop", "standard",
	"test:units", "test:functionals", "test:integration", "test:system", "test:all", "spec:models", "spec:requests",
	"clean", "clobber", "routes", "stats", "notes", "about", "-T", "--tasks", "-P", "-t", "--trace"}}

func rakeCmd(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		ok := true
		for _, a := range args[1:] {
			k, v, has := strings.Cut(a.val, "=")
			switch {
			case !a.static:
				ok = false
			case rakeTasks.has(a.val):
			case has && (k == "TEST" || k == "TESTOPTS" || k == "SPEC" || k == "N") && !strings.HasPrefix(v, "/") && !strings.Contains(v, "..") &&
				testPattern(strings.NewReplacer("-", "", " ", "", ".", "", "_", "").Replace(v)):
			default:
				ok = false
			}
		}
		if ok {
			x.add(Allow, RuleBuildProject, "rake runs the project's build or test tasks")
			x.inWorkspace()
			return
		}
		prev(x, args)
	}
}

// railsCmd allows `rails test [paths]` and the read-only listings; the
// rest (generators, db:, server, runner, console) asks.
func railsCmd(x *cmdCtx, args []word) {
	if len(args) >= 2 && args[1].static {
		switch sub := args[1].val; sub {
		case "test", "test:system", "test:all", "test:models", "test:controllers", "spec":
			x.add(Allow, RuleBuildProject, "rails "+sub+" runs the project's tests")
			x.inWorkspace()
			for _, a := range args[2:] {
				if !a.static {
					x.add(Ask, RuleShellDynamicArg, "an argument comes from an expansion")
					continue
				}
				if !strings.HasPrefix(a.val, "-") {
					p, _, _ := strings.Cut(a.val, ":") // test/x_test.rb:12
					x.readStr(p)
				}
			}
			return
		case "routes", "about", "stats", "notes", "-v", "--version", "version":
			if len(args) <= 3 {
				x.add(Allow, RuleReadOnly, "rails "+sub+" prints information")
				x.inWorkspace()
				return
			}
		}
	}
	x.add(Ask, RuleBuildOption, "rails: only its test and listing commands are allowed without asking")
}

// dotnetCmd allows build/test with a configuration, a filter or a
// project in the workspace, before the earlier handler.
func dotnetCmd(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		if len(args) < 2 {
			prev(x, args)
			return
		}
		sub := args[1].val
		if sub != "build" && sub != "test" && sub != "format" && sub != "clean" && sub != "list" {
			prev(x, args)
			return
		}
		var reads []word
		for i := 2; i < len(args); i++ {
			a := args[i]
			v := a.val
			switch {
			case !a.static:
				prev(x, args)
				return
			case v == "-c" || v == "--configuration" || v == "--filter" || v == "-f" || v == "--framework" || v == "-v" || v == "--verbosity" || v == "--logger" || v == "-l":
				if i+1 >= len(args) || !testPattern(strings.NewReplacer("=", "", "~", "", "|", "", "&", "", "!", "", ";", "").Replace(args[i+1].val)) {
					prev(x, args)
					return
				}
				i++
			case v == "--no-restore" || v == "--no-build" || v == "--nologo" || v == "--verify-no-changes" || v == "--blame" || v == "package":
			case !strings.HasPrefix(v, "-"):
				reads = append(reads, a)
			default:
				prev(x, args)
				return
			}
		}
		x.add(Allow, RuleBuildProject, "dotnet "+sub+" builds or tests the project")
		x.inWorkspace()
		for _, r := range reads {
			x.read(r)
		}
	}
}

// pnpmExec judges `pnpm exec CMD` as CMD: pnpm runs the project's
// installed binary (node_modules/.bin) and never downloads one.
func pnpmExec(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		if len(args) > 2 && args[1].static && args[1].val == "exec" && args[2].static && !strings.HasPrefix(args[2].val, "-") {
			x.add(Allow, RuleBuildProject, "pnpm exec runs a binary the project installed")
			x.nested(args[2:], "pnpm exec")
			return
		}
		prev(x, args)
	}
}

// venvActivate allows, inside the sandbox, sourcing a virtualenv's
// activate script in the workspace (`source .venv/bin/activate`): the
// project's own environment, whose writes ask as files that run later.
// Anything else sourced is judged by the earlier handler.
func venvActivate(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		if x.c.sandbox && len(args) == 2 && args[1].static && !args[1].pattern && strings.HasSuffix(args[1].val, "/bin/activate") && !x.ranWritten(args[1], nil) {
			ps := x.resolve(args[1])
			inWS := ps != nil
			for _, p := range ps {
				if !within(p, x.c.ws) || strings.Contains("/"+rel(p, x.c.ws)+"/", "/.git/") {
					inWS = false
				}
			}
			if inWS {
				x.add(Allow, RuleSandboxCode, "activates the project's virtualenv, its own code, inside the sandbox")
				x.read(args[1])
				return
			}
		}
		prev(x, args)
	}
}

// fdCmd is fd: a file finder. -x/-X run a command for each match: asked.
func fdCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleReadOnly, "finds files")
	ops := operands(args[1:], "etdEcjSgo", []string{"extension", "type", "max-depth", "min-depth", "exact-depth", "exclude",
		"color", "threads", "size", "changed-within", "changed-before", "owner", "ignore-file", "max-results", "base-directory", "search-path", "format"})
	for _, a := range args[1:] {
		v := a.val
		if v == "-x" || v == "-X" || strings.HasPrefix(v, "--exec") || strings.HasPrefix(v, "--ignore-file") || strings.HasPrefix(v, "--base-directory") || strings.HasPrefix(v, "--search-path") || v == "-L" || v == "--follow" {
			x.add(Ask, RuleToolExec, "fd "+v+" runs a command, follows links or reads from elsewhere")
			return
		}
	}
	if len(ops) <= 1 {
		x.readStr(".")
	}
	if len(ops) > 1 {
		for _, w := range ops[1:] {
			x.read(w)
		}
	}
}

// viewerCmd is bat or delta: it shows files or a diff. A pager or any
// option naming a program asks.
func viewerCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleReadOnly, args[0].val+" shows files")
	for _, a := range args[1:] {
		v := a.val
		if strings.HasPrefix(v, "--pager") || strings.HasPrefix(v, "--config") || strings.HasPrefix(v, "--diff-so-fancy") || strings.HasPrefix(v, "--hyperlinks") || strings.HasPrefix(v, "--features") || v == "--paging=always" {
			x.add(Ask, RuleToolExec, args[0].val+" "+v+" can run a pager or read configuration that does")
			return
		}
	}
	for _, w := range operands(args[1:], "lpHrmsw", []string{"language", "line-range", "highlight-line", "theme", "style", "map-syntax", "tabs", "wrap", "terminal-width", "width", "color", "paging", "decorations", "file-name"}) {
		x.read(w)
	}
}

// localCurl allows, inside the sandbox, a GET or HEAD of a server on the
// sandbox's own loopback (localhost, 127.0.0.1, [::1]): a health check of
// what the coder started. No upload, config, proxy, socket, redirect
// following or output file: anything else goes to the network handler.
func localCurl(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		if !x.c.sandbox || !localGet(args[1:]) {
			prev(x, args)
			return
		}
		x.add(Allow, RuleLocalHealth, "curl reads from a server on the sandbox's own loopback")
	}
}

// RuleLocalHealth allows a read of a loopback server inside the sandbox.
const RuleLocalHealth = "net.loopback-read"

func localGet(args []word) bool {
	urls := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.val
		if !a.static {
			return false
		}
		switch {
		case v == "-s" || v == "-S" || v == "-f" || v == "-i" || v == "-I" || v == "-v" || v == "--silent" || v == "--show-error" ||
			v == "--fail" || v == "--include" || v == "--head" || v == "--verbose" || v == "-sS" || v == "-fsS" || v == "-sf" ||
			v == "-fs" || v == "-sI" || v == "-Is" || v == "-sv" || v == "-si" || v == "--compressed" || v == "-k" || v == "--insecure" || v == "--fail-with-body":
		case (v == "-o" || v == "--output") && i+1 < len(args) && args[i+1].val == "/dev/null":
			i++
		case v == "-w" || v == "--write-out" || v == "-m" || v == "--max-time" || v == "--connect-timeout" || v == "--retry" || v == "--retry-delay" || v == "-H" || v == "--header" || v == "-X" || v == "--request":
			if i+1 >= len(args) || !args[i+1].static {
				return false
			}
			i++
			n := args[i].val
			if (v == "-X" || v == "--request") && n != "GET" && n != "HEAD" {
				return false
			}
			if (v == "-H" || v == "--header") && strings.HasPrefix(n, "@") {
				return false
			}
			if (v == "-w" || v == "--write-out") && strings.HasPrefix(n, "@") {
				return false // a format read from a file
			}
		case strings.HasPrefix(v, "-"):
			return false
		default:
			if !loopbackURL(v) {
				return false
			}
			urls++
		}
	}
	return urls > 0
}

// loopbackURL: an http(s) URL whose host is the loopback, with no user
// info.
func loopbackURL(v string) bool {
	if !strings.HasPrefix(v, "http://") && !strings.HasPrefix(v, "https://") {
		return false
	}
	u, err := url.Parse(v)
	if err != nil || u.User != nil || u.Opaque != "" {
		return false
	}
	switch u.Hostname() {
	case "localhost", "127.0.0.1", "::1":
		return !strings.ContainsAny(u.Host, "@\\")
	}
	return false
}
