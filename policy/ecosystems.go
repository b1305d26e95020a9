package policy

import (
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
	addMoreEcosystemHandlers(handlers) // ecosystems_more.go
	handlers["meson"] = mesonCmd
	handlers["ninja"] = ninjaCmd
	handlers["ctest"] = ctestCmd // ctestpreset.go
	for _, n := range []string{"gcc", "g++", "cc", "c++", "clang", "clang++"} {
		handlers[n] = compilerCmd
	}
	handlers["bundle"] = bundleCmd(handlers["bundle"])
	handlers["rake"] = rakeCmd(handlers["rake"])
	handlers["rails"] = railsCmd
	handlers["dotnet"] = dotnetCmd(handlers["dotnet"])
	handlers["gradle"] = gradleTasks(gradleCmd(handlers["gradle"])) // gradletasks.go, then gradlecmd.go in the sandbox
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
	handlers["curl"] = devServerPostOff(localCurl(handlers["curl"])) // devserverpost_off.go
	handlers["pkg-config"] = noPaths
	handlers["lsof"] = lsofCmd(handlers["lsof"])
	handlers["ss"] = ssCmd           // sscmd.go
	handlers["pgrep"] = pgrepCmd     // proclisters.go
	handlers["netstat"] = netstatCmd // proclisters.go
	handlers["top"] = topCmd         // readviews.go
	handlers["jps"] = jpsCmd         // readviews.go
	handlers["dlv"] = dlvCmd         // readviews.go
	handlers["kill"] = jobKill(handlers["kill"])
	for _, n := range []string{"rubocop", "standardrb", "erb_lint", "brakeman", "phpstan", "phpcs", "phpcbf", "psalm",
		"pint", "clang-format", "cppcheck", "cpplint", "swiftformat", "shellcheck", "hadolint", "yamllint", "actionlint",
		"markdownlint", "detekt", "checkstyle", "google-java-format", "dotnet-format", "rustfmt", "cargo-clippy",
		"clang-tidy", "swift-format", "xcodebuild", "javac", "kotlinc", "ktfmt", "scalafmt", "credo", "mix-format", "phpunit", "pest"} {
		if _, known := handlers[n]; !known {
			handlers[n] = projectTool
		}
	}
	handlers["javac"] = javacOut(handlers["javac"]) // buildoutput_off.go
}

// rubyBinstubs are the programs Rails and Bundler generate into bin/, and
// the tools composer installs there when a project sets its bin-dir to bin
// (Symfony's bin/phpunit and bin/console, Laravel packages' bin/pest): the
// project's own wrappers of the tool of that name, as vendor/bin's are.
var rubyBinstubs = wordSet{words: []string{"rails", "rake", "rspec", "bundle", "rubocop", "spring", "setup", "dev",
	"importmap", "jobs", "brakeman", "yarn", "webpack", "vite", "thrust", "ci",
	"phpunit", "pest", "phpstan", "psalm", "php-cs-fixer", "phpcs", "phpcbf", "rector", "ecs", "console", "paratest"}}

// binstub reports whether every path is bin/NAME at the workspace root
// for a Ruby binstub name: run as the project's own code (inside the
// sandbox), not asked as a workspace program posing as NAME.
func binstub(c *checkEnv, paths []string) bool {
	for _, p := range paths {
		r := rel(p, c.ws)
		name, ok := binstubName(r) // binstubs.go: api/bin/rails in a monorepo
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
		args = twinArgs(args[0].val, args) // shorttwins.go: --configuration is -c
		if len(args) == 2 && args[1].static {
			switch v := args[1].val; {
			case v == "--version" || v == "-V" || v == "-version",
				v == "-v" && (dashVIsVersion.has(args[0].val) || twinOf(args[0].val, "--version") == "-v"):
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
	var settings []word
	for i := 1; i < len(args) && ok; i++ {
		a := args[i]
		v := a.val
		switch {
		case !a.static:
			ok = false
		case v == "-s" || v == "--settings" || v == "-gs" || v == "--global-settings":
			// ecosystems_more.go: the project's own settings file
			ok = i+1 < len(args) && args[i+1].static
			if ok {
				settings = append(settings, args[i+1])
			}
			i++
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
		for _, f := range settings {
			x.projectSettings("mvn", f)
		}
		return
	}
	subcommandTool(x, args)
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
		if len(args) >= 2 && args[1].static && args[1].val == "audit" {
			bundlerAudit(x, args[1:]) // ecosystems_more.go: bundle audit [check]
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
	"clean", "clobber", "routes", "stats", "notes", "about", "-T", "--tasks", "-P", "-t", "--trace",
	// pol5: the style tasks that rewrite the project's own files, as
	// rubocop -a and standardrb --fix do; --fix is no rake option (rake
	// refuses it and runs nothing), written by agents after `rake standard`.
	"standard:fix", "rubocop:autocorrect", "rubocop:autocorrect_all", "rubocop:auto_correct", "--fix"}}

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
		case "server", "s":
			if railsServer(x, args[2:]) { // projectbuilds_off.go
				return
			}
		case "runner", "r":
			if railsRunner(x, args[2:]) { // dbschema.go
				return
			}
		case "routes", "about", "stats", "notes", "-v", "--version", "version":
			if len(args) <= 3 || sub == "routes" && railsRouteFilters(args[2:]) { // projectbuilds_off.go
				x.add(Allow, RuleReadOnly, "rails "+sub+" prints information")
				x.inWorkspace()
				return
			}
		}
	}
	if len(args) >= 2 && args[1].static && railsProjectTask(x, args[1].val, args[2:]) { // projectrunners_off.go
		return
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
		if dotnetEF(x, args) { // ecosystems_more.go
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
				if i+1 >= len(args) || !testPattern(strings.NewReplacer("=", "", "~", "", "|", "", "&", "", "!", "", ";", "").Replace(args[i+1].val)) ||
					(v == "--logger" || v == "-l") && loggerLoadsCode("logger", "", args[i+1:]) {
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
		if n := pnpmSelectors(args); n > 1 && n+1 < len(args) && args[n].val == "exec" { // pnpmfilter.go: --filter web exec vitest
			args = append([]word{args[0]}, args[n:]...)
		}
		if len(args) > 2 && args[1].static && args[1].val == "exec" && args[2].static && !strings.HasPrefix(args[2].val, "-") {
			x.add(Allow, RuleBuildProject, "pnpm exec runs a binary the project installed")
			x.nested(args[2:], "pnpm exec")
			return
		}
		prev(x, args)
	}
}

// venvActivate allows sourcing a virtualenv's activate script in the
// workspace (`source .venv/bin/activate`): the project's own environment,
// whose writes ask as files that run later. With the sandbox off too: the
// script is an auto entry of runlater.toml, which the coder may not write
// without the person, so its text is the venv tool's or the person's, as
// in the shell the person activates it from every day (`source
// .venv/bin/activate && pytest -q`: Python CLAUDE.md files, polcorp7/8,
// heldout3). Anything else sourced is judged by the earlier handler.
func venvActivate(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		if len(args) == 2 && args[1].static && !args[1].pattern && strings.HasSuffix(args[1].val, "/bin/activate") && !x.ranWritten(args[1], nil) {
			ps := x.resolve(args[1])
			inWS := ps != nil
			for _, p := range ps {
				if !within(p, x.c.ws) || strings.Contains("/"+rel(p, x.c.ws)+"/", "/.git/") {
					inWS = false
				}
			}
			if inWS {
				if x.c.sandbox {
					x.add(Allow, RuleSandboxCode, "activates the project's virtualenv, its own code, inside the sandbox")
				} else {
					x.add(Allow, RuleShellSource, "activates the project's virtualenv, a script the coder may not write without the person")
				}
				x.read(args[1])
				return
			}
		}
		prev(x, args)
	}
}

// jobKill allows kill of the shell's own background jobs (kill %1): what
// this line started, nothing else.
func jobKill(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		ok := len(args) > 1
		for _, w := range args[1:] {
			v := w.val
			if !w.static || !(strings.HasPrefix(v, "%") && len(v) > 1 && strings.Trim(v[1:], "0123456789") == "" ||
				v == "%%" || v == "%+" || v == "-TERM" || v == "-INT" || v == "-9" || v == "-KILL" || v == "-15" || v == "-2") {
				ok = false
			}
		}
		if ok && strings.HasPrefix(args[len(args)-1].val, "%") {
			x.add(Allow, RuleShellBuiltin, "kill stops a background job this shell started")
			return
		}
		prev(x, args)
	}
}

// lsofCmd allows the port and process listings agents use to find what
// holds a port (lsof -i :3000, lsof -nP -iTCP:8080 -sTCP:LISTEN, lsof -t
// -i:5173): they print open sockets. Repeat mode (-r, +r) and anything else
// go to the earlier handler.
func lsofCmd(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		ok := len(args) > 1
		for _, w := range args[1:] {
			v := w.val
			switch {
			case !w.static:
				ok = false
			case v == "-i" || v == "-n" || v == "-P" || v == "-t" || v == "-nP" || v == "-Pn" || v == "-V":
			case strings.HasPrefix(v, "-i") || strings.HasPrefix(v, "-sTCP:"):
				ok = ok && strings.Trim(v, "-isTCPUDPLISTENABHDOWN:@.0123456789[]") == ""
			case strings.HasPrefix(v, ":") && strings.Trim(v[1:], "0123456789") == "":
			case lsofCluster(v): // lsofopts.go: -ti:8081
			default:
				ok = false
			}
		}
		if ok {
			x.add(Allow, RuleReadOnly, "lsof lists the sockets that hold a port")
			return
		}
		prev(x, args)
	}
}
