package policy

import "strings"

// Python's test, package and environment runners: pytest, pip, coverage
// and the `X run CMD` forms of uv, poetry, pdm, hatch and pipenv.

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
		case "-o", "--override-ini":
			if !has && i+1 < len(rest) {
				i++
				val = rest[i].val
			}
			pytestIniOverride(x, val, rest[i].static)
		case "-p", "-k", "-m", "-n", "-W", "--tb", "--maxfail", "--durations",
			"--deselect", "--ignore-glob", "--import-mode", "--log-level",
			"--capture", "--dist", "--numprocesses", "--timeout", "-r", "--cov", "--color", "--count", "--randomly-seed", "--lfnf", "--last-failed-no-failures", "--show-capture", "--verbosity", "--junit-prefix":
			if !has && i+1 < len(rest) {
				i++
			}
		default:
			if strings.HasPrefix(a, "-o") && len(a) > 2 && a[2] != '-' {
				pytestIniOverride(x, a[2:], rest[i].static)
			} else if !strings.HasPrefix(a, "-") {
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
	case "index":
		if len(ops) > 1 && ops[1].val == "versions" {
			registryRead(x, "pip index versions")
			return
		}
		x.add(Ask, RulePkgInstall, "pip index is not judged in detail")
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
// run CMD`, `pipenv run CMD` and `rye run CMD`: CMD run in the project's
// environment, so CMD is what is judged (with the sandbox off, a program
// the policy does not know asks as it does alone). Options that add
// packages or pick another interpreter ask. It reports whether args was
// such a form.
func envRunner(x *cmdCtx, args []word) bool {
	cmd, bad, ok := readEnvRunner(args)
	if ok && bad == "" && !x.c.sandbox && args[0].val == "hatch" {
		if lines, rest, ok := x.hatchScriptOff(cmd); ok && rest != nil {
			cmd = rest // hatchscripts_off.go: hatch run test:pytest is pytest
		} else if ok {
			x.hatchScriptLines(cmd[0].val, lines)
			return true
		}
	}
	switch {
	case !ok:
		return false
	case bad != "" && x.uvRunWith(args): // uvwith.go: uv run --with PKG
	case bad != "":
		x.add(Ask, RuleBuildOption, args[0].val+" run option "+bad+" can add packages or change the interpreter")
	case len(cmd) == 0:
		x.add(Ask, RuleBuildOption, args[0].val+" run with no command")
	case !x.c.sandbox:
		// With the sandbox off a program the policy does not know is
		// judged as it is without the runner (`uv run op item get …`
		// asks as `op item get …` does): judged on its own first, so
		// that nothing decided before it stands in for its judgment.
		saved, set := x.f, x.set
		x.f, x.set = finding{}, false
		x.command(cmd, 1)
		if set {
			x.addF(saved)
		}
		x.add(Allow, RuleBuildProject, args[0].val+" run runs a command in the project's environment")
		x.inWorkspace()
	default:
		// Inside the sandbox a program of the project's environment
		// (a console script of its virtualenv) is the project's code.
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
	case "uv", "poetry", "pdm", "hatch", "pipenv", "rye":
	case "conda", "mamba", "micromamba":
		return condaRunSplit(args) // condarun.go
	default:
		return nil, "", false
	}
	if len(args) < 3 || args[1].val != "run" {
		return nil, "", false
	}
	rest := args[2:]
	for len(rest) > 0 && strings.HasPrefix(rest[0].val, "-") {
		if mod, tail, ok := uvRunModule(args[0].val, rest); ok {
			// uv run -m MOD ARGS is python -m MOD ARGS in the project's
			// environment, judged as that.
			if mod.val == "" {
				return nil, "", true
			}
			return append([]word{{val: "python", static: true}, {val: "-m", static: true}, mod}, tail...), "", true
		}
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

// uvRunModule reads uv run's -m/--module MOD (also -mMOD, --module=MOD)
// at the head of rest: ok says it is that option, mod is the module (an
// empty word if missing) and tail the words after it.
func uvRunModule(tool string, rest []word) (mod word, tail []word, ok bool) {
	if tool != "uv" {
		return word{}, nil, false
	}
	w := rest[0]
	switch v := w.val; {
	case v == "-m" || v == "--module":
		if len(rest) < 2 {
			return word{}, nil, true
		}
		return rest[1], rest[2:], true
	case strings.HasPrefix(v, "--module="):
		return word{val: v[len("--module="):], static: w.static}, rest[1:], true
	case strings.HasPrefix(v, "-m") && !strings.HasPrefix(v, "--"):
		return word{val: v[2:], static: w.static}, rest[1:], true
	}
	return word{}, nil, false
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
	if codeHookOption(v) {
		return true
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

// codeHookOption: a checker's option whose value is code, not
// configuration — pylint's --init-hook (Python run before it lints) and
// --load-plugins (modules it imports) — in every prefix argparse takes.
// The same in `pylint …` and `python -m pylint …`.
func codeHookOption(v string) bool {
	name, _, _ := strings.Cut(strings.TrimPrefix(v, "--"), "=")
	if !strings.HasPrefix(v, "--") || len(name) < 3 {
		return false
	}
	for _, o := range [...]string{"init-hook", "load-plugins"} {
		if strings.HasPrefix(o, name) {
			return true
		}
	}
	return false
}
