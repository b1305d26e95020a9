package policy

import "strings"

// fetchedTools are well-known Python linters, formatters and test runners
// that agents run without installing them (uvx ruff check ., uv tool run
// ruff format ., pipx run black --check .): the package index's copy of
// the tool is the tool, and inside the sandbox it is judged as the
// installed one is (fetchrun.go: one class with npx and the dlx
// launchers). Any other name, an option before it (--from, --with), in
// place or the sandbox off keeps the fetch asked; a custom index denies.
var fetchedTools = wordSet{words: []string{"ruff", "black", "isort", "mypy", "pyright", "ty", "flake8", "pylint",
	"pyproject-fmt", "ssort", "codespell", "yamllint", "bandit", "vulture", "pyupgrade", "autoflake", "docformatter",
	"pydocstyle", "pycodestyle", "pyflakes", "blacken-docs", "validate-pyproject"}}

// fetchedTool wraps the handler of uvx, pipx and uv: a run of a
// fetchedTools name is the tool's own judgment, inside the sandbox.
func fetchedTool(handlers map[string]handler, prev handler) handler {
	return func(x *cmdCtx, args []word) {
		i := 1 // uvx TOOL
		switch {
		case args[0].val == "pipx" || args[0].val == "uv":
			// uv run TOOL runs the project's environment, no fetch: only
			// pipx run and uv tool run fetch.
			if len(args) < 3 || args[0].val == "pipx" && args[1].val != "run" || args[0].val == "uv" && args[1].val != "tool" {
				prev(x, args)
				return
			}
			i = 2 // pipx run TOOL
			if args[1].val == "tool" {
				if args[2].val != "run" {
					prev(x, args)
					return
				}
				i = 3 // uv tool run TOOL
			}
		}
		if hasOpt(leadingOptions(args[min(i, len(args)):]), "", "--index-url", "--extra-index-url", "--index", "-i", "--default-index", "--find-links", "-f", "--pip-args") {
			x.add(Deny, RulePkgIndex, args[0].val+" fetches from a custom package index")
			return
		}
		if len(args) <= i || !args[i].static {
			prev(x, args)
			return
		}
		name := args[i].val
		spec := name
		for _, sep := range []string{"@", "=="} {
			if n, v, ok := strings.Cut(name, sep); ok && plainToken(v) {
				name = n // ruff@0.6.9, black==24.8.0: a version of the same tool
			}
		}
		tool := append([]word{{val: name, static: true}}, args[i+1:]...)
		judge := func() {
			if h, ok := handlers[name]; ok {
				h(x, tool)
				return
			}
			projectTool(x, tool)
		}
		launcher := strings.Join(vals(args[:i]), " ")
		if name == spec && x.declaredPyToolOff(launcher, name, judge) { // uvxdeclared_off.go: a version on the line is not the declared one (off30)
			return
		}
		if name == spec && x.offListedFetch(launcher, "pypi", name, "", func(string) { judge() }) { // offtools.go
			return
		}
		if _, listed := offListedTool("pypi", name, ""); !fetchedTools.has(name) && !listed {
			prev(x, args)
			return
		}
		x.fetchRun(launcher, name, true, judge) // fetchrun.go
	}
}

// leadingOptions are the words before the first operand: the launcher's
// own options, not the tool's.
func leadingOptions(args []word) []word {
	for i, a := range args {
		if !strings.HasPrefix(a.val, "-") {
			return args[:i]
		}
	}
	return args
}
