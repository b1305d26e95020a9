package policy

import (
	"strings"
)

// Everyday forms the independent corpus testdata/polcorp1206.tsv found
// asked or denied, by class rather than by line:
//
//   - verbs of the build tools' tables (buildverbs.go) that only build,
//     print or clean: dotnet new and a folder publish, stack clean, uv
//     build, conda's and rbenv's listings, pnpm store path, docker info,
//     xcrun simctl list;
//   - a tool's own spelling of a harmless option (everydayArgs): composer's
//     -o is --optimize, dotnet's -o names the output folder (a write,
//     judged as one), deno's --config names the project's deno.json (a
//     read);
//   - a linter's option that names its own configuration file or a
//     recursive walk (phpunit -c phpunit.xml, swift-format -r): the file is
//     read like any operand (projectConfigOption);
//   - variables whose value is a log level or a switch (TF_LOG,
//     XDEBUG_MODE=coverage) or the project's own file (STACK_YAML);
//   - programs that only print about a file (lipo -info, codesign
//     --verify, php -m).
//
// Nothing here allows what another rule denies: a handler's strictest
// finding still wins, a verb here still goes through buildArgs, and a
// guard (everydayArgs) sends a verb that installs templates, deploys or
// pushes a container back to the tool's own handler.

// everydayBuildVerbs are verb rows merged into buildVerbs.
func everydayBuildVerbs(p, r, m, run verbClass) map[string]map[string]verbClass {
	return map[string]map[string]verbClass{
		"dotnet": {"new": p, "publish": p, "--version": r, "sln": r, "nuget locals --list": r},
		"stack":  {"clean": p, "ls": r, "ide targets": r},
		"uv":     {"build": p, "tree": r, "pip list": r, "pip show": r, "pip freeze": r, "--version": r, "version": r},
		"conda":  {"list": r, "env list": r, "info": r, "--version": r, "config --show": r},
		"rbenv":  {"version": r, "versions": r, "which": r, "root": r, "--version": r, "version-name": r},
		"pnpm":   {"store path": r},
		"docker": {"info": r, "compose version": r, "compose images": r, "compose top": r, "compose ls": r, "buildx ls": r,
			"context ls": r, "stats": r, "image history": r, "volume ls": r, "network ls": r},
		"xcrun": {"simctl list": r, "--show-sdk-path": r, "--show-sdk-version": r, "--version": r},
		// plan runs the providers init fetched and the configuration's
		// external data sources, and reads remote state: inside the sandbox
		// with no cloud credentials in reach and every host asked by the
		// proxy; show prints a plan or state file. state list (off29) reads
		// the state plan reads and prints only addresses: allowed where plan
		// is, asked off as plan is; state show/pull print secrets and ask.
		"terraform": {"plan": run, "show": run, "state list": run},
	}
}

// everydayArgs rewrites a verb's arguments the tool spells its own way, or
// reports false for a verb that must go to the tool's own handler.
func (x *cmdCtx) everydayArgs(tool, verb string, rest []word) ([]word, bool) {
	switch tool {
	case "composer":
		var out []word
		for _, w := range rest {
			if w.static && (w.val == "-o" || w.val == "--optimize" || w.val == "--optimize-autoloader") {
				continue // -o is --optimize: a faster autoloader, written under vendor/
			}
			out = append(out, w)
		}
		return out, true
	case "dotnet":
		for _, w := range rest {
			lv := strings.ToLower(w.val)
			if verb == "publish" && (strings.Contains(lv, "publishprofile") || strings.Contains(lv, "deploy") ||
				strings.Contains(lv, "container") || strings.Contains(lv, "webpublish")) {
				return nil, false // a profile may deploy, a container target may push
			}
			if verb == "new" && (dotnetNewOwn.has(lv) || strings.HasPrefix(lv, "-i") || strings.HasPrefix(lv, "-u")) {
				return nil, false // installs or updates template packages
			}
		}
		return x.outputFolder(rest, "o", "output", true), true
	case "terraform", "tofu":
		return x.outputFolder(rest, "out", "out", false), true // plan -out=tfplan: the plan file it writes
	case "deno":
		var out []word
		for i := 0; i < len(rest); i++ {
			w := rest[i]
			name, val, has := strings.Cut(w.val, "=")
			if w.static && (name == "--config" || name == "-c") {
				if !has {
					if i+1 >= len(rest) {
						return nil, false
					}
					i++
					w = rest[i]
				} else {
					w = word{val: val, static: true}
				}
				out = append(out, w) // the project's deno.json: a path, read
				continue
			}
			out = append(out, w)
		}
		if verb == "compile" {
			// deno compile -o bin/tool cli.ts: the binary it writes,
			// judged as the write it is; compiling runs none of the code
			return x.outputFolder(out, "o", "output", false), true
		}
		return out, true
	}
	return x.moreEverydayArgs(tool, verb, rest) // everyday_p12.go: dart, flutter, zig
}

// dotnetNewOwn are dotnet new's own commands, which fetch or change the
// installed templates rather than write a project from one.
var dotnetNewOwn = wordSet{words: []string{"install", "uninstall", "update", "search", "--install", "--uninstall",
	"--update-check", "--update-apply", "--search"}}

// outputFolder turns the output option (-o DIR, --output DIR, -o:DIR,
// --output=DIR) into a write of DIR (of any file under it when dir is
// set), judged as any write is, and returns the other arguments.
func (x *cmdCtx) outputFolder(rest []word, short, long string, dir bool) []word {
	var out []word
	for i := 0; i < len(rest); i++ {
		w := rest[i]
		name, val, has := strings.Cut(w.val, "=")
		if !has {
			name, val, has = strings.Cut(w.val, ":")
		}
		if w.static && (name == "-"+short || name == "--"+long) {
			if !has {
				if i+1 >= len(rest) || !rest[i+1].static {
					out = append(out, w) // buildArgs refuses it
					continue
				}
				i++
				val = rest[i].val
			}
			v := strings.Trim(val, `"'`)
			if dir {
				v += "/glob-match" // any file under it
			}
			x.capturing(func() { x.writeStr(v) })
			continue
		}
		out = append(out, w)
	}
	return out
}

// projectConfigOpts: per linter or test runner, its options that name its
// own configuration file (true: the file is the next word) or only walk
// directories (false). The file is read like any operand: inside the
// workspace it is the project's own, as the default file is.
var projectConfigOpts = lazy[map[string]map[string]bool]{build: func() map[string]map[string]bool {
	conf := map[string]bool{"-c": true, "--configuration": true}
	return map[string]map[string]bool{
		"phpunit":      conf,
		"pest":         conf,
		"phpstan":      conf,
		"psalm":        {"-c": true, "--config": true},
		"rubocop":      {"-c": true, "--config": true},
		"swift-format": {"-r": false, "--recursive": false, "--configuration": true},
		"swiftlint":    {"--config": true},
		"pint":         {"--config": true},
		// pol5: linters and formatters that read the same file by default.
		"golangci-lint": {"-c": true, "--config": true},
		"eslint":        {"-c": true, "--config": true},
		"prettier":      {"--config": true},
		"stylelint":     {"--config": true},
		"ruff":          {"--config": true},
		"mypy":          {"--config-file": true},
		"pylint":        {"--rcfile": true},
		"flake8":        {"--config": true},
		// devtools.go: javap -c disassembles, -p shows private members;
		// bandit -r recurses, -c names its config file.
		"javap":  {"-c": false, "-p": false},
		"bandit": {"-r": false, "-c": true},
	}
}}

// projectConfigOption reads args[i] as one of the tool's projectConfigOpts:
// ok says it is one, span how many words it takes, file the file it names.
func projectConfigOption(tool string, args []word, i int) (span int, file word, ok bool) {
	opts := projectConfigOpts.get()[baseName(tool)]
	if opts == nil || !args[i].static {
		return 0, word{}, false
	}
	name, val, has := strings.Cut(args[i].val, "=")
	takes, known := opts[name]
	switch {
	case !known:
		return 0, word{}, false
	case !takes:
		return 1, word{}, !has
	case has:
		return 1, word{val: val, static: true}, true
	case i+1 < len(args):
		return 2, args[i+1], true
	}
	return 0, word{}, false
}

// everydayEnv: variables whose value is judged by envValueTable.
func everydayEnv(m map[string]envValueJudge) {
	for _, n := range []string{"TF_LOG", "TF_LOG_CORE", "TF_LOG_PROVIDER", "TF_IN_AUTOMATION", "TF_INPUT",
		"CHECKPOINT_DISABLE", "DOTNET_CLI_TELEMETRY_OPTOUT", "DOTNET_CLI_UI_LANGUAGE", "NUGET_XMLDOC_MODE",
		"COMPOSER_NO_INTERACTION", "COMPOSER_NO_AUDIT", "COMPOSER_MEMORY_LIMIT", "DENO_NO_UPDATE_CHECK",
		"ELIXIR_ERL_OPTIONS_OFF", "ERL_AFLAGS_OFF", "SWIFT_DETERMINISTIC_HASHING", "ZIG_DEBUG_COLOR"} {
		m[n] = plainToken
	}
	// .NET's switches of its own output (polcorp9: Codex's AGENTS.md sets
	// the terminal logger off); a plain value changes no program
	for _, n := range []string{"DOTNET_CLI_DISABLE_TERMINAL_LOGGER", "DOTNET_NOLOGO", "DOTNET_SKIP_FIRST_TIME_EXPERIENCE", "MSBUILDTERMINALLOGGER"} {
		m[n] = plainToken
	}
	m["XDEBUG_MODE"] = func(v string) bool {
		for _, p := range strings.Split(v, ",") {
			if p != "off" && p != "coverage" && p != "develop" {
				return false
			}
		}
		return true
	}
	m["STACK_YAML"] = projectYAML
}

// projectYAML: a relative .yaml file name of the project (stack.yaml,
// stack-9.6.yaml, ci/stack.yaml), never above it.
func projectYAML(v string) bool {
	if !plainToken(strings.ReplaceAll(v, "/", "")) || strings.HasPrefix(v, "/") || strings.Contains(v, "..") {
		return false
	}
	return strings.HasSuffix(v, ".yaml") || strings.HasSuffix(v, ".yml")
}

// addEverydayHandlers registers, last, the programs that only print about
// a file, the loopback forms of network tools, the well-known tools uvx
// fetches, and kubectl's and gh's reads inside the sandbox.
func addEverydayHandlers(handlers map[string]handler) {
	handlers["lipo"] = reportOrUnknown(lipoCmd)
	handlers["xcpretty"] = testOutputFormatter // everyday_reads.go
	handlers["xcbeautify"] = testOutputFormatter
	handlers["codesign"] = reportOrUnknown(codesignCmd)
	if prev, ok := handlers["php"]; ok {
		handlers["php"] = phpInfo(prev)
	}
	if prev, ok := handlers["wget"]; ok {
		handlers["wget"] = localWget(prev)
	}
	for _, n := range []string{"pg_isready", "redis-cli", "valkey-cli", "grpcurl", "http", "https", "xh"} {
		prev, ok := handlers[n]
		if !ok {
			prev = func(x *cmdCtx, a []word) {
				x.add(Ask, RuleUnknownCommand, a[0].val+" is not a program the policy knows")
			}
		}
		handlers[n] = localClient(prev) // loopback2.go
	}
	for _, n := range []string{"turbo", "nx", "lerna"} {
		handlers[n] = taskRunnerCmd // monorepotasks.go
	}
	if _, ok := handlers["task"]; !ok {
		handlers["task"] = goTaskCmd
	}
	if prev, ok := handlers["pnpm"]; ok {
		handlers["pnpm"] = pnpmProgram(prev)
	}
	if prev, ok := handlers["yarn"]; ok {
		handlers["yarn"] = yarnWorkspaces(prev)
	}
	for _, n := range []string{"kubectl", "gh"} {
		if prev, ok := handlers[n]; ok {
			handlers[n] = remoteRead(n, prev) // remotereads.go
		}
	}
	for _, n := range []string{"uvx", "pipx", "uv"} {
		if prev, ok := handlers[n]; ok {
			handlers[n] = fetchedTool(handlers, prev)
		}
	}
	for _, n := range []string{"nc", "ncat", "netcat"} {
		if prev, ok := handlers[n]; ok {
			handlers[n] = localProbe(prev)
		}
	}
}

// reportOrUnknown judges a program by report, which allows the forms that
// only print and returns false, having added nothing, for the rest: those
// are a program the policy does not know.
func reportOrUnknown(report func(x *cmdCtx, args []word) bool) handler {
	return func(x *cmdCtx, args []word) {
		if !report(x, args) {
			x.add(Ask, RuleUnknownCommand, args[0].val+" is not a program the policy knows")
		}
	}
}

// lipoCmd: lipo's reports (-info, -archs, -detailed_info, -verify_arch)
// read the files named; anything else (-create, -output, -thin) writes.
func lipoCmd(x *cmdCtx, args []word) bool {
	if len(args) < 3 || !args[1].static {
		return false
	}
	switch args[1].val {
	case "-info", "-archs", "-detailed_info", "-verify_arch":
	default:
		return false
	}
	for _, w := range args[2:] {
		if !w.static || strings.HasPrefix(w.val, "-") {
			return false
		}
	}
	x.add(Allow, RuleReadOnly, "lipo "+args[1].val+" prints the architectures of a binary")
	for _, w := range args[2:] {
		if looksLikePath(w.val) || args[1].val != "-verify_arch" {
			x.read(w)
		}
	}
	return true
}

// codesignCmd: codesign --verify or --display, with output only to the
// terminal; signing, removing a signature or writing entitlements to a
// file goes to the unknown-program judgment.
func codesignCmd(x *cmdCtx, args []word) bool {
	mode := false
	var files []word
	for i := 1; i < len(args); i++ {
		w := args[i]
		if !w.static {
			return false
		}
		v := w.val
		switch {
		case v == "--verify" || v == "-d" || v == "--display" || v == "-dv" || v == "-dvv" || v == "-dvvv" || v == "--validate-constraint":
			mode = true
		case v == "-v" || v == "-vv" || v == "-vvv" || v == "-vvvv" || strings.HasPrefix(v, "--verbose") || v == "--deep" || v == "--strict":
		case v == "--entitlements" && i+1 < len(args) && (args[i+1].val == ":-" || args[i+1].val == "-"):
			i++
		case strings.HasPrefix(v, "-"):
			return false
		default:
			files = append(files, w)
		}
	}
	if !mode || len(files) == 0 {
		return false
	}
	x.add(Allow, RuleReadOnly, "codesign checks or shows a signature")
	for _, w := range files {
		x.read(w)
	}
	return true
}

// phpInfo: php -m and php --ini list modules and ini files (php -i, which
// prints the environment, is not one of them).
func phpInfo(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		if len(args) == 2 && args[1].static && (args[1].val == "-m" || args[1].val == "--ini") {
			x.add(Allow, RuleReadOnly, "php "+args[1].val+" lists its modules or ini files")
			return
		}
		prev(x, args)
	}
}

// goTaskCmd: inside the sandbox, go-task's `task NAME… [-- ARGS]` runs the
// project's Taskfile tasks, as just runs its recipes (justCmd); the words
// after -- are the tasks' CLI_ARGS, read when they name files. Taskwarrior
// is also called task, so with the sandbox off a person decides unless a
// Taskfile in the workspace says go-task (gotask_off.go); another
// Taskfile or directory (-t, -d), a variable, or a task that sounds like
// installing or publishing asks.
func goTaskCmd(x *cmdCtx, args []word) {
	if !x.c.sandbox && !x.goTaskfileHere() { // gotask_off.go: a Taskfile says go-task
		x.add(Ask, RuleUnknownCommand, "task is go-task or Taskwarrior; with the sandbox off a person decides")
		return
	}
	var tasks, cliArgs []word
	dashes := false
	for _, a := range args[1:] {
		switch {
		case !a.static || a.brace:
			x.add(Ask, RuleUnknownCommand, "task "+quoteShort(a.val)+" is not known before it runs")
			return
		case dashes:
			cliArgs = append(cliArgs, a)
		case a.val == "--":
			dashes = true
		case a.val == "--list" || a.val == "-l" || a.val == "--list-all" || a.val == "-a" || a.val == "--summary" ||
			a.val == "--dry" || a.val == "-n" || a.val == "--silent" || a.val == "-s" || a.val == "--verbose" || a.val == "-v" ||
			a.val == "--parallel" || a.val == "-p" || a.val == "--force" || a.val == "-f":
		case strings.HasPrefix(a.val, "-") || strings.Contains(a.val, "="):
			x.add(Ask, RuleBuildOption, "task "+a.val+" names another Taskfile, directory or variable")
			return
		case publishWord(a.val) || strings.Contains(strings.ToLower(a.val), "install"):
			x.add(Ask, RulePublish, "the task "+quoteShort(a.val)+" sounds like it installs, publishes or deploys")
			return
		case !x.c.sandbox && taskwarriorWord(a.val):
			x.add(Ask, RuleUnknownCommand, "task "+quoteShort(a.val)+" is also a Taskwarrior command, which changes or sends the person's tasks")
			return
		default:
			tasks = append(tasks, a)
		}
	}
	x.add(Allow, RuleSandboxCode, goTaskAllowReason(x.c.sandbox)) // gotask_off.go
	x.inWorkspace()
	for _, w := range cliArgs {
		if looksLikePath(trimLine(w.val)) {
			x.readStr(trimLine(w.val))
		}
	}
}

// globSafeVerb: deno check, fmt and lint run none of the code they read,
// so a file name a glob turns into an option (deno check **/*.ts) can at
// most pick another configuration or output form inside the project; the
// other verbs (run, test, task) run code and keep asking.
func globSafeVerb(prog string, args []word) bool {
	return prog == "deno" && len(args) > 1 && args[1].static && (args[1].val == "check" || args[1].val == "fmt" || args[1].val == "lint")
}
