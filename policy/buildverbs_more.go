package policy

import (
	"strings"
)

// More build tools by verb class (buildverbs.go), for the ecosystems the
// third held-out corpus found asked: Zig, Bazel (and its wrappers
// bazelisk and aspect), Dart and Flutter, Conan, Helm, kustomize, the local
// forms of kubectl, and Nix flakes. Their arguments are judged by
// buildArgs like every other tool's, after toolArgs has turned each tool's
// own spelling of a harmless thing into what buildArgs reads: a Bazel label
// (//pkg:target, :all) is a workspace path, a query's --output=FORMAT and
// a test's --test_output=MODE name a format, dart format -o MODE names a
// mode, conan -s/-o KEY=VALUE are settings, a flake reference "." or
// ".#name" is the workspace while any other reference (github:, nixpkgs#)
// is fetched. sbt and just run the project's own tasks and recipes, as make
// runs its targets (sbtCmd, justCmd); nix develop --command runs a command
// judged on its own, and nix run of a remote flake runs code nobody has
// seen (nixCmd).

func moreBuildVerbs(p, r, m, run verbClass) map[string]map[string]verbClass {
	bazel := map[string]verbClass{"build": p, "test": p, "coverage": p, "clean": p, "run": run, "query": r, "cquery": r,
		"aquery": r, "info": r, "version": r, "--version": r, "fetch": m, "sync": m, "mod graph": r, "mod deps": r, "shutdown": r}
	return map[string]map[string]verbClass{
		"zig": {"build": p, "test": p, "fmt": p, "build-exe": p, "build-lib": p, "build-obj": p, "ast-check": p,
			"translate-c": p, "run": run, "version": r, "env": r, "targets": r, "fetch": m},
		// mix local.hex/local.rebar install archives into the person's
		// ~/.mix, out of the sandbox's reach (toolstate.go): sandbox only
		"mix":   {"local.hex": m, "local.rebar": m},
		"bazel": bazel, "bazelisk": bazel, "aspect": bazel,
		"dart": {"format": p, "analyze": p, "test": p, "fix": p, "doc": p, "compile": p, "run": run, "pub get": m,
			"pub upgrade": m, "pub downgrade": m, "pub deps": r, "pub outdated": r, "pub run": run, "info": r, "--version": r},
		"flutter": {"test": p, "analyze": p, "build": p, "format": p, "gen-l10n": p, "clean": p, "run": run, "pub get": m,
			"pub upgrade": m, "pub run": run, "pub deps": r, "pub outdated": r, "doctor": r, "devices": r, "--version": r},
		"conan": {"install": m, "build": run, "create": run, "test": run, "source": run, "export-pkg": run, "profile detect": m,
			"profile show": r, "profile list": r, "list": r, "search": r, "graph info": r, "inspect": r, "version": r, "--version": r},
		"helm": {"lint": p, "template": p, "package": p, "dependency build": m, "dependency update": m, "dep build": m,
			"dep update": m, "dependency list": r, "show values": r, "show chart": r, "show readme": r, "show all": r, "version": r},
		"kustomize": {"build": p, "version": r},
		"kubectl":   {"kustomize": p, "version --client": r},
		"nix": {"build": run, "flake check": run, "flake show": run, "flake metadata": r, "flake info": r, "flake archive": m,
			"flake update": m, "flake lock": m, "flake prefetch": m, "fmt": run, "run": run, "eval": run, "log": r, "path-info": r,
			"why-depends": r, "derivation show": r},
		"tflint": {"--recursive": run},
	}
}

// moreProjectTools are linters and formatters of the project (projectTool).
var moreProjectTools = []string{"hlint", "ormolu", "fourmolu", "stylish-haskell", "cabal-fmt", "air", "kubeconform", "kubeval",
	"nixfmt", "alejandra", "statix", "deadnix", "buildifier", "scalafix", "scalastyle", "ktlint", "swiftlint", "ruff", "terraform-docs",
	"tfsec", "checkov", "zls", "clang-format", "cmake-format", "cmake-lint", "dartfmt", "lintr", "styler"}

// addMoreBuildHandlers registers, after the verb handlers, the tools whose
// verbs are not a table, and the database clients (dbcli.go).
func addMoreBuildHandlers(handlers map[string]handler) {
	for _, n := range moreProjectTools {
		if _, known := handlers[n]; !known {
			handlers[n] = projectTool
		}
	}
	handlers["sbt"] = sbtCmd(orUnknown(handlers["sbt"]))
	handlers["just"] = justCmd(orUnknown(handlers["just"]))
	handlers["nix"] = nixCmd(orUnknown(handlers["nix"]))
	handlers["rustup"] = rustupCmd(orUnknown(handlers["rustup"])) // toolstate.go
	handlers["bundle"] = bundleConfig(orUnknown(handlers["bundle"]))
	handlers["mix"] = mixLocal(orUnknown(handlers["mix"]))
	handlers["sqlite3"] = sqlite3Cmd                        // dbcli.go
	handlers["psql"] = psqlCmd(orUnknown(handlers["psql"])) // dbcli.go
	for _, n := range []string{"redis-cli", "valkey-cli", "psql", "mysql", "mariadb", "mongo", "mongosh"} {
		handlers[n] = dbWipe(orUnknown(handlers[n])) // dbwipe.go
	}
}

// orUnknown is h, or the judgment of a program the policy does not know.
func orUnknown(h handler) handler {
	if h != nil {
		return h
	}
	return func(x *cmdCtx, args []word) {
		x.unknownRunner(args[0].val, args) // unknownrunners.go
	}
}

// toolArgs rewrites a tool's own spelling of harmless arguments into what
// buildArgs reads (see the file comment); it returns args unchanged for
// other tools. A word it cannot read is kept, for buildArgs to refuse.
func toolArgs(tool string, args []word) []word {
	switch tool {
	case "bazel", "bazelisk", "aspect", "dart", "flutter", "conan", "nix", "swift":
	default:
		return args // no spelling of its own to rewrite: no copy
	}
	var out []word
	keep := func(w word) { out = append(out, w) }
	path := func(w word, p string) { w.val = p; out = append(out, w) }
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.val
		if !w.static || w.brace {
			keep(w)
			continue
		}
		switch tool {
		case "swift":
			// swift format's in-place, recursive and parallel switches
			// (no swift build or test option is spelled so); the paths
			// it formats are read as paths
			if setOf("-i", "--in-place", "-r", "--recursive", "--parallel")[v] {
				continue
			}
		case "bazel", "bazelisk", "aspect":
			switch {
			case strings.HasPrefix(v, "-//"):
				keep(w)
			case strings.HasPrefix(v, "-"):
				// An option of the allowlist, with the value it takes as
				// toolOptionsKnown read it (buildopts.go), only changes
				// what is built or printed; any other is kept, to refuse.
				_, allow, _ := toolOptTable(tool)
				if span, known := toolOption(allow, args, i); known {
					i += span - 1
					continue
				}
				keep(w)
			default:
				for _, p := range bazelLabels(v) {
					path(w, p)
				}
			}
			continue
		case "dart", "flutter":
			if (v == "-o" || v == "--output") && i+1 < len(args) && formatModes.has(args[i+1].val) {
				i++
				continue
			}
			if m, ok := strings.CutPrefix(v, "--output="); ok && formatModes.has(m) {
				continue
			}
			if v == "--delete-conflicting-outputs" {
				continue
			}
		case "conan":
			if (v == "-s" || v == "-o" || v == "-c" || v == "--settings" || v == "--options") && i+1 < len(args) &&
				conanSetting(args[i+1]) {
				i++
				continue
			}
			if (v == "-of" || v == "--output-folder") && i+1 < len(args) {
				i++
				path(args[i], "./"+strings.TrimPrefix(args[i].val, "./"))
				continue
			}
			if f, ok := strings.CutPrefix(v, "--output-folder="); ok {
				path(w, "./"+strings.TrimPrefix(f, "./"))
				continue
			}
			if v == "--build=missing" || v == "--build" && i+1 < len(args) && args[i+1].val == "missing" {
				if v == "--build" {
					i++
				}
				continue
			}
		case "nix":
			switch v {
			case "--accept-flake-config", "--impure", "--print-build-logs", "-L", "--show-trace", "--keep-going", "--no-link", "--offline", "--all-systems":
				continue
			}
			if !strings.HasPrefix(v, "-") {
				if local, ok := flakeRef(v); ok {
					path(w, local)
				} else {
					w.val = "fetched://" + v // a remote flake: buildArgs refuses it
					keep(w)
				}
				continue
			}
		}
		keep(w)
	}
	return out
}

// formatModes are dart format's -o modes.
var formatModes = wordSet{words: []string{"write", "show", "json", "none"}}

// conanSetting: KEY=VALUE with no path in the value.
func conanSetting(w word) bool {
	k, v, ok := strings.Cut(w.val, "=")
	return ok && w.static && k != "" && !strings.ContainsAny(v, "/~$`") && !strings.Contains(v, "..")
}

// bazelLabels turns a label or a query expression into workspace paths:
// //pkg/...:x is ./pkg, //... and :all are the workspace. An external
// repository (@repo//x) or anything else is kept as written.
func bazelLabels(v string) []string {
	if strings.Contains(v, "@") {
		return []string{"@" + v}
	}
	if strings.HasPrefix(v, ":") {
		return []string{"."}
	}
	if !strings.Contains(v, "//") {
		return []string{v}
	}
	var out []string
	for rest := v; ; {
		i := strings.Index(rest, "//")
		if i < 0 {
			break
		}
		if i > 0 && !strings.ContainsRune("( ,+-^", rune(rest[i-1])) {
			return []string{v}
		}
		lbl := rest[i+2:]
		end := strings.IndexAny(lbl, ":) ,")
		pkg := lbl
		if end >= 0 {
			pkg = lbl[:end]
		}
		pkg = strings.TrimSuffix(strings.TrimSuffix(pkg, "..."), "/")
		if strings.Contains(pkg, "..") && !strings.HasSuffix(lbl, "...") || strings.HasPrefix(pkg, "/") {
			return []string{v}
		}
		out = append(out, "./"+pkg)
		rest = lbl
	}
	return out
}

// flakeRef: "." ".#name" "./sub#name" "path:." are the workspace.
func flakeRef(v string) (string, bool) {
	v = strings.TrimPrefix(v, "path:")
	base, _, _ := strings.Cut(v, "#")
	if base == "" && strings.HasPrefix(v, "#") {
		return ".", true
	}
	if base == "." || base == "./" || strings.HasPrefix(base, "./") && !strings.Contains(base, "..") {
		return base, true
	}
	return "", false
}

// sbtCmd: every command sbt is given (an operand, or ;-separated commands
// in one) names a task of the build, the project's own code, as make's
// targets are; sbt's own publishing tasks publish (denied), a local
// publish writes the person's ivy cache and asks, and commands that take
// Scala text (set, eval, console) or options the policy does not know go
// to the earlier handler.
func sbtCmd(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		var tasks []string
		var rest []word
		for _, a := range args[1:] {
			if !a.static || a.brace {
				prev(x, args)
				return
			}
			switch a.val {
			case "-batch", "--batch", "-no-colors", "--no-colors", "--client", "-v", "--verbose", "-warn", "--warn", "-error", "--error":
				continue
			}
			if strings.HasPrefix(a.val, "-") && !sbtPlainProp(a.val) { // sbttasks.go: -Dfile.encoding=UTF8
				prev(x, args)
				return
			}
			if strings.HasPrefix(a.val, "-") {
				continue
			}
			for _, c := range strings.Split(a.val, ";") {
				f := strings.Fields(c)
				if len(f) == 0 {
					continue
				}
				if !sbtSafeCommand(f) && !sbtProjectTask(f) { // sbttasks.go: the build's own tasks
					prev(x, args) // a command the policy does not know, or one with more words than it takes
					return
				}
				tasks = append(tasks, f[0])
				for _, t := range f[1:] {
					rest = append(rest, word{val: t, static: true})
				}
			}
		}
		if len(tasks) == 0 {
			prev(x, args) // the interactive shell
			return
		}
		for _, t := range tasks {
			key := strings.TrimLeft(t, "+~")
			if strings.HasPrefix(t, "++") {
				continue // ++2.13.12 picks the Scala version
			}
			if i := strings.LastIndexAny(key, "/:"); i >= 0 {
				key = key[i+1:]
			}
			low := strings.ToLower(key)
			switch {
			case strings.HasPrefix(low, "publishlocal") || strings.HasPrefix(low, "publishm2"):
				prev(x, args)
				return
			case publishWord(key):
				x.add(Deny, RulePublish, "sbt "+key+" publishes the project")
				return
			case key == "" || sbtScalaText.has(key):
				prev(x, args)
				return
			}
		}
		if _, ok := buildArgs(rest, "sIrCgpk"); !ok {
			prev(x, args)
			return
		}
		x.add(Allow, RuleBuildProject, "sbt runs the build's own tasks ("+strings.Join(tasks, ", ")+")")
		x.inWorkspace()
	}
}

// sbtSafeTasks are the sbt tasks that build, test, run or describe the
// project and nothing more; any other command (alias, apply, onFailure, <,
// addPluginSbtFile, eval, set, a custom task) goes to the earlier handler.
var sbtSafeTasks = wordSet{words: []string{"clean", "compile", "test", "run", "runMain", "testOnly", "testQuick", "update",
	"package", "packageBin", "assembly", "doc", "projects", "tasks", "about", "version", "scalaVersion", "sbtVersion", "name",
	"dependencyTree", "evicted", "fastOptJS", "fullOptJS", "stage", "headerCheck", "scalafmt", "scalafmtCheck",
	"scalafmtAll", "scalafmtCheckAll", "scalafmtSbt", "scalafmtSbtCheck", "Test/compile", "scripted", "scalafix", "scalafixAll", "publish", "publishSigned",
	"publishLocal", "publishM2", "release", "sonatypeBundleRelease"}}

// sbtTakesWords are the safe tasks whose further words are the program's
// or the test runner's arguments (judged by buildArgs), not sbt commands.
var sbtTakesWords = wordSet{words: []string{"run", "runMain", "testOnly", "testQuick"}}

// sbtSafeCommand: one ;-separated sbt command, split into words, is a
// known-safe task (scoped as core/test, Test/compile, +test, ~test) with no
// further words unless the task takes its program's arguments, or ++ with a
// bare Scala version.
func sbtSafeCommand(f []string) bool {
	t := f[0]
	if strings.HasPrefix(t, "++") {
		v := strings.TrimPrefix(t, "++")
		if v == "" && len(f) == 2 {
			v, f = f[1], f[:1]
		}
		return len(f) == 1 && v != "" && strings.Trim(v, "0123456789.-RCMabcdefghijklmnopqrstuvwxyz") == ""
	}
	key := strings.TrimLeft(t, "+~")
	if i := strings.LastIndexAny(key, "/:"); i >= 0 {
		key = key[i+1:]
	}
	if !sbtSafeTasks.has(key) {
		return false
	}
	if (key == "scalafix" || key == "scalafixAll") && len(f) == 2 && f[1] == "--check" {
		return true // the project's own .scalafix.conf rules, checked only
	}
	return len(f) == 1 || sbtTakesWords.has(key)
}

// sbtScalaText are commands that take Scala text or a console.
var sbtScalaText = wordSet{words: []string{"set", "eval", "console", "consoleQuick", "consoleProject", "shell", "reboot", "session", "inspect"}}

// justCmd: just runs the justfile's recipes, the project's own code, as
// make runs its targets; a recipe that sounds like publishing asks, as a
// make target does, and options that pick another justfile, shell or
// directory go to the earlier handler.
func justCmd(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		var recipes []word
		for _, a := range args[1:] {
			if !a.static || a.brace {
				prev(x, args)
				return
			}
			switch a.val {
			case "--list", "-l", "--summary", "--dry-run", "-n", "--quiet", "-q", "--verbose", "-v":
				continue
			}
			if strings.HasPrefix(a.val, "-") || strings.Contains(a.val, "=") {
				prev(x, args)
				return
			}
			recipes = append(recipes, a)
		}
		for _, r := range recipes {
			if publishWord(r.val) || strings.Contains(strings.ToLower(r.val), "install") {
				x.add(Ask, RulePublish, "the recipe "+quoteShort(r.val)+" sounds like it installs, publishes or deploys")
				return
			}
		}
		x.add(Allow, RuleBuildProject, "just runs the project's own recipes")
		x.inWorkspace()
		for _, r := range recipes {
			if looksLikePath(r.val) {
				x.read(r)
			}
		}
	}
}

// nixCmd: `nix develop -c CMD` runs CMD in the project's dev shell, judged
// on its own inside the sandbox; `nix run`/`nix shell` of a remote flake
// runs code nobody has seen; the rest goes to the verb handler.
func nixCmd(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		if len(args) > 1 && (args[1].val == "run" || args[1].val == "shell") {
			for _, a := range args[2:] {
				if a.val == "--" || a.val == "-c" || a.val == "--command" {
					break
				}
				if strings.HasPrefix(a.val, "-") {
					continue
				}
				if _, local := flakeRef(a.val); !local && !strings.HasPrefix(a.val, "nixpkgs#") {
					x.add(Deny, RulePkgRemoteExec, "nix "+args[1].val+" "+quoteShort(a.val)+" fetches a flake and runs its code")
					return
				}
			}
		}
		if len(args) > 1 && args[1].val == "develop" {
			if i := wordIndex(args, "-c", "--command"); i > 0 && i+1 < len(args) {
				plain := true
				for _, a := range args[2:i] {
					_, local := flakeRef(a.val)
					if !a.static || !local && a.val != "--impure" && a.val != "--accept-flake-config" {
						plain = false
					}
				}
				if plain && x.c.sandbox {
					x.add(Allow, RuleSandboxCode, "nix develop runs the command in the project's dev shell, inside the sandbox")
					x.inWorkspace()
				} else {
					prev(x, args)
				}
				x.nested(args[i+1:], "nix develop")
				return
			}
		}
		prev(x, args)
	}
}

// wordIndex is the index of the first of vals in args, or -1.
func wordIndex(args []word, vals ...string) int {
	for i, a := range args {
		for _, v := range vals {
			if a.val == v {
				return i
			}
		}
	}
	return -1
}
