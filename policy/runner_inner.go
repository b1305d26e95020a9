package policy

import "strings"

// Project runners that run a command or code the request names are
// judged as what they run, not as the project's own code: mix run -e CODE
// and elixir -e CODE run CODE, judged as inline code is (a snippet that
// deletes, spawns or reaches the home directory asks, inside the sandbox
// too), the way python -c is. python -m TOOL is judged as TOOL
// (pymodule_tools.go) and node_modules/.bin/TOOL as TOOL (publish.go).

// addRunnerInnerHandlers wraps the mix and elixir handlers, and lets
// twine check (a local check of built distributions, reached as python -m
// twine check) through twine's network handler.
func addRunnerInnerHandlers(handlers map[string]handler) {
	if prev, ok := handlers["twine"]; ok {
		handlers["twine"] = func(x *cmdCtx, args []word) {
			if len(args) < 2 || args[1].val != "check" {
				prev(x, args)
				return
			}
			x.add(Allow, RuleReadOnly, "twine check validates built distributions")
			for _, a := range args[2:] {
				if !strings.HasPrefix(a.val, "-") {
					x.read(a)
				}
			}
		}
	}
	for _, n := range []string{"mix", "elixir"} {
		prev, ok := handlers[n]
		if !ok {
			continue
		}
		name := n
		handlers[n] = func(x *cmdCtx, args []word) {
			rest := args[1:]
			if name == "mix" {
				if len(rest) == 0 || rest[0].val != "run" {
					prev(x, args)
					return
				}
				rest = rest[1:]
			}
			code, static, found := elixirEvalCode(rest)
			if !found {
				prev(x, args)
				return
			}
			what := strings.Join(vals(args[:len(args)-len(rest)]), " ")
			if !static {
				x.add(Ask, RuleInterpInline, what+" runs inline code built from an expansion")
				return
			}
			x.inlineCode(what, code)
		}
	}
}

// elixirEvalCode collects the code of -e/--eval CODE (and --eval=CODE)
// among the options before the script operand.
func elixirEvalCode(args []word) (code string, static, found bool) {
	static = true
	var codes []string
	for i := 0; i < len(args); i++ {
		v := args[i].val
		if !strings.HasPrefix(v, "-") {
			break
		}
		switch {
		case v == "-e" || v == "--eval":
			found = true
			if i+1 < len(args) {
				codes = append(codes, args[i+1].val)
				static = static && args[i+1].static
				i++
			}
		case strings.HasPrefix(v, "--eval="):
			found = true
			codes = append(codes, strings.TrimPrefix(v, "--eval="))
			static = static && args[i].static
		case v == "-r" || v == "-pr" || v == "-pa" || v == "-pz" || v == "--erl" || v == "--sname" ||
			v == "--name" || v == "--cookie" || v == "--app" || v == "--require" || v == "-p" || v == "--parallel-require":
			i++
		}
	}
	return strings.Join(codes, "\n"), static, found
}

// nodeModulesPublish judges node running a script of an installed package
// (node node_modules/lerna/cli.js publish, node node_modules/.bin/np) as
// that package's tool for publishing: publishing is publishing wherever it
// is spelled. argv is the script and its arguments.
func (x *cmdCtx) nodeModulesPublish(argv []word) {
	if len(argv) == 0 || !argv[0].static {
		return
	}
	p := strings.TrimPrefix(argv[0].val, "./")
	i := strings.LastIndex(p, "node_modules/")
	if i < 0 || i > 0 && p[i-1] != '/' {
		return
	}
	rest := strings.Split(p[i+len("node_modules/"):], "/")
	tool := rest[0]
	switch {
	case tool == ".bin" && len(rest) > 1:
		tool = rest[1]
	case strings.HasPrefix(tool, "@") && len(rest) > 1:
		tool = rest[1] // @changesets/cli is changeset's package
		if tool == "cli" {
			tool = strings.TrimSuffix(strings.TrimPrefix(rest[0], "@"), "s")
		}
	}
	x.judgePublish(append([]word{{val: tool, static: true}}, argv[1:]...))
}
