package policy

import (
	"strings"
)

// Build tools judged by verb class, not by listing every everyday line.
// Each tool's subcommands (verbs) fall in one class:
//
//   - verbProject builds, tests, checks or formats the project: the
//     project's own code, allowed as `make test` is;
//   - verbRead prints information about the project or the tool;
//   - verbManifest installs exactly what the project's manifest or lock
//     file names (npm ci, bundle install, composer install, uv sync,
//     dotnet restore, mix deps.get): the project's code, fetched; allowed
//     inside the sandbox, asked with it off;
//   - verbRun runs a project program or task (dotnet run, mix run, swift
//     run, deno task): the project's code, allowed inside the sandbox.
//
// Verbs not in the table (add, require, publish, deploy, install of a
// named package) go to the tool's earlier handler, which asks or denies.
// The arguments of a verb are judged by what they are, the same for every
// tool (buildArgs): a dynamic word, a URL, an option that names another
// registry, index, source, settings file, init script or plugin, or a
// publishing word goes to the earlier handler; a path must stay in the
// workspace.

type verbClass int

const (
	verbProject verbClass = iota + 1
	verbRead
	verbManifest
	verbRun
	verbAdd // adds named packages to the manifest and installs them (depadd.go)
)

// buildVerbs maps tool -> verb (space-joined for two-word verbs) -> class.
var buildVerbs = lazy[map[string]map[string]verbClass]{build: func() map[string]map[string]verbClass {
	p, r, m, run, add := verbProject, verbRead, verbManifest, verbRun, verbAdd
	var t struct {
		m map[string]map[string]verbClass
	}
	t.m = map[string]map[string]verbClass{
		"dotnet": {"build": p, "test": p, "format": p, "clean": p, "pack": p, "restore": m, "run": run, "watch": run,
			"list": r, "--info": r, "--list-sdks": r, "--list-runtimes": r, "sln list": r, "tool restore": m, "tool list": r,
			"list package": r, "list reference": r, "add package": add},
		"swift": {"build": p, "test": p, "package resolve": m, "package update": m, "package describe": r, "package show-dependencies": r,
			"package dump-package": r, "package clean": p, "package reset": p, "run": run,
			"format": p, "format lint": p, "format format": p},
		"mix": {"test": p, "compile": p, "format": p, "credo": p, "dialyzer": p, "docs": p, "xref": p, "deps.get": m, "deps.compile": p, // off30: compiles what deps/ holds, as mix compile does
			"deps.tree": r, "deps": r, "help": r, "ecto.migrate": run, "ecto.create": run, "ecto.gen.migration": p, "run": run,
			"phx.server": run, "phx.routes": r, "hex.outdated": r, "hex.audit": r, "hex.info": r, "deps.update": m, "clean": p, "deps.unlock": p, "sobelow": p},
		"deno": {"test": p, "fmt": p, "lint": p, "check": p, "bench": p, "doc": r, "info": r, "task": run, "run": run, "cache": m,
			"install": m, "compile": p, "coverage": p},
		"bun":    {"add": add, "test": p, "build": p, "install": m, "i": m, "pm ls": r, "run": run},
		"poetry": {"add": add, "install": m, "sync": m, "lock": m, "check": p, "show": r, "env info": r, "build": p, "version": r},
		"composer": {"require": add, "update": m, "upgrade": m, "exec": run, "install": m, "i": m, "dump-autoload": p, "dumpautoload": p, "validate": r, "show": r, "outdated": r,
			"licenses": r, "depends": r, "why": r, "why-not": r, "diagnose": r, "check-platform-reqs": r, "test": run,
			"run-script": run, "run": run, "audit": r, "fund": r, "status": r},
		"bundle": {"add": add, "install": m, "check": r, "list": r, "show": r, "info": r, "outdated": r, "lock": m, "platform": r},
		"gem":    {"list": r, "which": r, "contents": r, "environment": r, "env": r, "spec": r, "dependency": r},
		"mvn": {"clean": p, "test": p, "compile": p, "verify": p, "package": p, "validate": p, "test-compile": p, "install": m, "spring-boot:run": run, "exec:java": run, "quarkus:dev": run, "dependency:resolve": m,
			"dependency:go-offline": m, "dependency:tree": r, "dependency:list": r, "dependency:analyze": r, "help:effective-pom": r},
		"cargo": {"fetch": m, "nextest run": p, "nextest list": r, "add": add},
		"go":    {"get": add},
		"npm":   {"add": add, "install": m, "i": m, "ci": m, "clean-install": m, "outdated": r, "audit": r},
		"pnpm":  {"add": add, "install": m, "i": m, "outdated": r, "audit": r},
		"yarn":  {"add": add, "install": m, "": m, "outdated": r, "audit": r, "info": r},
		"pip":   {"install": m}, "pip3": {"install": m},
		"uv":         {"add": add, "sync": m, "lock": m, "venv": m, "pip install": m, "pip sync": m},
		"pre-commit": {"run": p},
		"rake":       {"db:migrate": run, "db:create": run, "db:test:prepare": run, "db:prepare": run, "db:seed": run, "db:rollback": run},
		"rails": {"db:migrate": run, "db:create": run, "db:test:prepare": run, "db:prepare": run, "db:seed": run, "db:rollback": run,
			"generate": run, "g": run},
		"docker": {"ps": r, "images": r, "version": r, "compose ps": r, "compose logs": r, "compose config": r, "logs": r, "image ls": r, "container ls": r},
		"stack":  {"build": p, "test": p, "bench": p, "haddock": p, "--version": r, "path": r, "ls dependencies": r, "exec": run, "run": run},
		"cabal": {"build": p, "test": p, "bench": p, "haddock": p, "check": p, "configure": p, "sdist": p, "new-build": p, "new-test": p,
			"new-haddock": p, "v2-build": p, "v2-test": p, "v2-haddock": p, "list": r, "info": r, "--version": r, "update": m,
			"run": run, "new-run": run, "v2-run": run},
		// terraform fmt rewrites files and runs nothing; validate loads the
		// providers init fetched (their code); init without a backend
		// fetches providers from the registry (manifestOperands).
		"terraform": {"fmt": p, "version": r, "-version": r, "providers": r, "validate": run, "init": m},
		"tflint":    {"": run, "--init": m, "--version": r},
		"tox":       {"": m, "run": m, "r": m, "list": r, "l": r, "--version": r},
		"nox":       {"": m, "--list": r, "-l": r, "--version": r},
		"java":      {"-version": r, "--version": r},
		"jar":       {"tf": r, "tvf": r, "-tf": r, "--list": r},
	}
	for _, more := range []map[string]map[string]verbClass{moreBuildVerbs(p, r, m, run), everydayBuildVerbs(p, r, m, run), everydayFormVerbs(p, r, m, run), devToolVerbs(p, r, m, run), p9BuildVerbs(p, r, m, run), p10BuildVerbs(p, r, m, run), p12BuildVerbs(p, r, m, run), p15BuildVerbs(p, r, m, run), p16BuildVerbs(p, r, m, run)} { // buildverbs_more.go, everyday.go, everyday_forms.go, devtools.go, buildverbs_p9.go, buildverbs_p10.go, buildverbs_p12.go, buildverbs_p15.go, buildverbs_p16.go
		for tool, verbs := range more {
			if t.m[tool] == nil {
				t.m[tool] = map[string]verbClass{}
			}
			for v, c := range verbs {
				t.m[tool][v] = c
			}
		}
	}
	return t.m
}}

// buildVerbHandlers wraps every tool of the table, so that a verb it knows
// is judged by its class and the rest by the tool's own handler.
func addBuildVerbHandlers(handlers map[string]handler) {
	for tool := range buildVerbs.get() {
		prev, ok := handlers[tool]
		if !ok {
			prev = func(x *cmdCtx, args []word) {
				x.unknownRunner(args[0].val, args) // unknownrunners.go: xcrun rm -rf ~
			}
		}
		handlers[tool] = verbHandler(tool, prev)
	}
}

func verbHandler(tool string, prev handler) handler {
	return func(x *cmdCtx, args []word) {
		args = twinArgs(tool, args)                                         // shorttwins.go: --configuration is -c
		if rest, dirs, ok := workDirArgs(tool, args); ok && len(dirs) > 0 { // workdir.go: composer -d DIR
			for _, d := range dirs {
				x.readStr(d)
			}
			args = rest
		}
		if tool == "docker" {
			args = composeVerbFirst(args) // containerbuild.go: docker compose -f FILE ps
		}
		verb, rest, cls := findVerb(tool, args[1:])
		if tool == "mvn" {
			verb, rest, cls = mavenVerbs(args[1:])
		}
		if cls != 0 && !toolOptionsKnown(tool, rest) {
			prev(x, args) // buildopts.go: an option the allowlist does not hold
			return
		}
		rest = toolArgs(tool, rest)       // buildverbs_more.go: labels, modes, settings
		rest, outs := p16Args(tool, rest) // p16args.go: dune @aliases, xmake modes, buf/hugo outputs
		if cls == 0 && !x.writtenBefore() {
			if v, r, ok := projectScriptVerb(tool, args[1:]); ok {
				verb, rest, cls = v, r, verbRun // buildscripts.go: composer analyse, mix coveralls.html
			}
		}
		if cls == 0 || x.writtenBefore() { // everyday_forms.go
			// A line that writes files and then builds is judged by the
			// tool's own handler, which reads what was written.
			prev(x, args)
			return
		}
		if (cls == verbManifest || cls == verbAdd || cls == verbRun && (!offRunVerb(tool, verb) || !offRunArgs(tool, verb, rest)) && !x.testDBVerbOff(tool, verb)) && !x.c.sandbox {
			prev(x, args)
			return
		}
		if (cls == verbManifest || cls == verbAdd) && !manifestOperands(tool, verb, rest) || cls == verbAdd {
			// Named packages: the install of a manifest change (depadd.go).
			opts, ok := addOperands(tool, rest)
			if !ok || !addVerb(tool, verb, cls) || !x.c.sandbox || x.c.inPlace {
				prev(x, args)
				return
			}
			letters := "sIrCgpkfie" // -e: an editable install is a path, not the registry
			reads, ok := buildArgs(opts, letters)
			if !ok {
				prev(x, args)
				return
			}
			x.add(Allow, RuleSandboxCode, tool+" "+verb+" installs "+quoteShort(operandList(rest))+" from the registry, as the manifest install of an added dependency, inside the sandbox")
			x.inWorkspace()
			for _, r := range reads { // --dir=, --cwd=, -modfile=, --constraint= name places it reads and writes
				x.readStr(r)
			}
			return
		}
		if cls == verbRun && tool == "deno" && verb == "run" && len(rest) > 0 && denoRunsFetched(x, rest, func() { prev(x, args) }) {
			return // deno run of a module deno fetches, not a project file (denomodules.go)
		}
		letters := "sIrCgpk"
		if sessionTool(tool) {
			letters = "" // every option was checked by sessionArgs
		}
		if cls == verbManifest && (tool == "pip" || tool == "pip3" || tool == "uv") {
			letters = "sICgpk" // -r is a requirement file, checked by pipFromManifest
		}
		rest, ok := x.everydayArgs(tool, verb, rest) // everyday.go: -o, --config, guards
		if ok {
			rest, ok = x.everydayFormArgs(tool, verb, rest) // everyday_forms.go
		}
		if !ok {
			prev(x, args)
			return
		}
		reads, ok := buildArgs(x.buildPlaces(tool, verb, rest), letters)
		if !ok {
			prev(x, args)
			return
		}
		switch cls {
		case verbRead:
			x.add(Allow, RuleReadOnly, tool+" "+verb+" prints information about the project")
		case verbManifest:
			x.add(Allow, RuleSandboxCode, tool+" "+verb+" installs what the project's own manifest names, inside the sandbox")
		case verbRun:
			where := ", inside the sandbox"
			if !x.c.sandbox {
				where = ", as `make test` runs it (--sandbox off)" // offcode.go
			}
			x.add(Allow, RuleSandboxCode, tool+" "+verb+" runs the project's own code"+where)
		default:
			x.add(Allow, RuleBuildProject, tool+" "+verb+" builds, tests or checks the project")
		}
		x.inWorkspace()
		for _, r := range reads {
			x.readStr(r)
		}
		for _, o := range outs {
			x.write(o)
		}
	}
}

// findVerb finds the tool's verb: the first operand (or the first two),
// after any leading options the table cannot know about (which make it
// fall through). A tool with an empty verb ("yarn" alone) matches no
// operand at all.
func findVerb(tool string, args []word) (string, []word, verbClass) {
	verbs := buildVerbs.get()[tool]
	if sessionTool(tool) {
		// tox -e py311, nox -s tests: no verb but its own (sessions.go)
		if len(args) > 0 && args[0].static {
			if c, ok := verbs[args[0].val]; ok && (len(args) == 1 || !strings.HasPrefix(args[0].val, "-")) {
				return args[0].val, args[1:], c
			}
		}
		return "", args, verbs[""]
	}
	i := 0
	for i < len(args) && strings.HasPrefix(args[i].val, "-") && args[i].static {
		if c, ok := verbs[args[i].val]; ok && len(args) == i+1 {
			return args[i].val, nil, c // dotnet --info
		}
		if !harmlessLead(args[i].val) {
			return "", nil, 0
		}
		i++
	}
	if i >= len(args) {
		if c, ok := verbs[""]; ok {
			return "", nil, c
		}
		return "", nil, 0
	}
	if !args[i].static {
		return "", nil, 0
	}
	if i+1 < len(args) && args[i+1].static {
		if c, ok := verbs[args[i].val+" "+args[i+1].val]; ok {
			return args[i].val + " " + args[i+1].val, args[i+2:], c
		}
	}
	if c, ok := verbs[args[i].val]; ok {
		return args[i].val, args[i+1:], c
	}
	return "", nil, 0
}

// harmlessLead are global options allowed before a verb.
func harmlessLead(v string) bool {
	switch v {
	case "-q", "--quiet", "-s", "--silent", "-v", "--verbose", "-B", "--batch-mode", "--no-ansi", "--ansi", "-n",
		"--no-interaction", "--nologo", "--no-transfer-progress", "-ntp", "-e", "--offline", "-o", "--frozen", "--locked":
		return true
	}
	return false
}

// manifestOperands reports whether an install names nothing but the
// project's manifest: no package operands (npm install, bundle install),
// or for pip only requirement files and local editable paths.
func manifestOperands(tool, verb string, rest []word) bool {
	switch tool {
	case "terraform", "tofu":
		// init fetches providers and modules into .terraform and sets up
		// the backend; inside the sandbox its writes stay in the workspace
		// and the backend's credentials are out of reach. Options that
		// name other settings (-backend-config, -plugin-dir,
		// -from-module) are refused by buildArgs or name a path it reads.
		return verb == "init" && !hasWord(rest, "-migrate-state") && !hasWord(rest, "-force-copy")
	case "conan":
		// conan install [path]: the project's conanfile (. or .. from a
		// build directory), judged as a read of the workspace.
		for _, w := range rest {
			if !strings.HasPrefix(w.val, "-") && !looksLikePath(w.val) {
				return false
			}
		}
		return true
	case "tox", "nox":
		return sessionArgs(tool, rest)
	case "pip", "pip3":
		return pipFromManifest(rest)
	case "uv":
		if verb == "pip install" {
			return pipFromManifest(rest)
		}
	}
	return manifestOnly(tool, rest) // mvngoals.go
}

// pipFromManifest: every operand is a requirement file (-r F) or the
// project itself (-e ., -e ".[dev]", .), never a package name or URL.
func pipFromManifest(args []word) bool {
	seen := false
	for i := 0; i < len(args); i++ {
		v := args[i].val
		switch {
		case v == "-r" || v == "--requirement" || v == "-e" || v == "--editable" || v == "-c" || v == "--constraint":
			if i+1 >= len(args) {
				return false
			}
			i++
			t := args[i].val
			if strings.Contains(t, "://") || strings.Contains(t, "+") || !args[i].static {
				return false
			}
			if (v == "-e" || v == "--editable") && !projectSelf(t) {
				return false
			}
			seen = true
		case strings.HasPrefix(v, "-r") && len(v) > 2 && !strings.HasPrefix(v, "--"):
			seen = true
		case strings.HasPrefix(v, "-"):
		case projectSelf(v):
			seen = true
		default:
			return false
		}
	}
	return seen
}

// projectSelf: ".", "./", ".[dev]", "./pkg[test]" — the project itself.
func projectSelf(v string) bool {
	p, _, _ := strings.Cut(v, "[")
	return p == "." || p == "./" || strings.HasPrefix(p, "./") && !strings.Contains(p, "..")
}

// riskyOptionWords name options that fetch from elsewhere or load code or
// settings the line does not show; an option whose name holds one of
// these goes to the tool's own handler.
var riskyOptionWords = []string{"index", "registry", "source", "repo", "config", "settings", "find-links", "trusted-host",
	"init-script", "plugin", "require", "preload", "loader", "import-map", "exec", "script", "shell", "global", "prefix",
	"target", "root", "user", "cert", "proxy", "token", "key", "password", "gradle-user-home", "project-dir", "pom",
	"unsafe", "agent", "argline", "jvmargs", "gemfile", "manifest", "allow-run", "allow-ffi", "allow-env", "allow-all", "allow-write", "allow-net", "location", "url", "output", "cache"}

// outputOptions name where a tool writes; their value must be written
// inside the workspace, which the tool's own handler judges.
var outputOptions = wordSet{words: []string{"o", "out", "outdir", "out-dir", "d", "dest", "destination"}}

// buildArgs judges a verb's arguments the same for every tool. It returns
// the paths to read (static operands and option values that look like
// paths, a trailing :LINE removed) and false when an argument must go to
// the tool's own handler.
func buildArgs(args []word, letters string) ([]string, bool) {
	var reads []string
	dashes := false
	for i, w := range args {
		v := w.val
		if !w.static || w.brace {
			return nil, false
		}
		if strings.Contains(v, "://") || strings.HasPrefix(v, "git+") || strings.HasPrefix(v, "@") {
			return nil, false
		}
		if v == "--" {
			dashes = true
			continue
		}
		if !dashes && strings.HasPrefix(v, "-") && len(v) > 1 {
			if props, ok := msbuildPropertySwitch(v); ok { // msbuildprops.go: -p:UseRazorBuildServer=false
				r, risky := msbuildPropsRisky(props)
				if risky {
					return nil, false
				}
				reads = append(reads, r...)
				continue
			}
			name, val, _ := strings.Cut(strings.TrimLeft(v, "-"), "=")
			name = strings.ToLower(name)
			if outputOptions.has(name) {
				return nil, false
			}
			if loggerLoadsCode(name, val, args[i+1:]) {
				return nil, false // MSBuild -logger:Class,x.dll, -distributedlogger: a DLL loaded into the build
			}
			if !strings.HasPrefix(name, "no-") { // --no-root, --no-cache turn something off
				for _, bad := range riskyOptionWords {
					if strings.Contains(name, bad) {
						return nil, false
					}
				}
			}
			if len(name) == 1 && strings.ContainsAny(name, letters) {
				return nil, false // -s settings, -I init script, -r require, -C dir, -g global, -p project, -k key
			}
			if looksLikePath(val) {
				reads = append(reads, trimLine(val))
			}
			continue
		}
		if publishWord(v) && !(i > 0 && (args[i-1].val == "-c" || args[i-1].val == "--configuration")) { // -c release
			return nil, false
		}
		if looksLikePath(v) {
			reads = append(reads, trimLine(v))
		}
	}
	return reads, true
}

// loggerLoadsCode: an MSBuild/VSTest logger option whose value names an
// assembly (a comma, a path or a .dll: -logger:Class,x.dll, -l:x.dll,
// --logger /p/x.dll) or any distributed logger (always two assemblies).
// A logger the SDK ships, by its name (--logger:trx, --logger "console;verbosity=detailed"),
// runs nothing new; any other name is looked up among assemblies (asks).
func loggerLoadsCode(name, val string, next []word) bool {
	base, v, hasColon := strings.Cut(name, ":")
	if !hasColon {
		v = val
	}
	switch base {
	case "distributedlogger", "dl":
		return true
	case "logger":
	case "l":
		if !hasColon {
			return false
		}
	default:
		return false
	}
	if v == "" && len(next) > 0 {
		v = next[0].val
	}
	v = strings.ToLower(v)
	if strings.ContainsAny(v, ",/\\") || strings.Contains(v, ".dll") {
		return true
	}
	// a logger by its friendly name: only the ones the SDK ships
	friendly, _, _ := strings.Cut(strings.Trim(v, `"'`), ";")
	switch friendly {
	case "trx", "console", "html", "junit", "blame", "":
		return false
	}
	return true
}

// trimLine drops a trailing :LINE (spec/x_spec.rb:12, test/a_test.exs:25).
func trimLine(v string) string {
	if i := strings.LastIndexByte(v, ':'); i > 0 && i < len(v)-1 && strings.Trim(v[i+1:], "0123456789") == "" {
		return v[:i]
	}
	return v
}

// publishWord: a task or goal that publishes, deploys or releases.
func publishWord(v string) bool {
	n := strings.ToLower(v)
	for _, bad := range []string{"publish", "deploy", "release", "upload", "push", "signing", "sonatype", "nexus", "artifactory", "bintray", "hex.", "nuget"} {
		if strings.Contains(n, bad) {
			return true
		}
	}
	return false
}
