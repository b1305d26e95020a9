package policy

import "strings"

// Interpreters: inline code and script files ask; version and a few
// known test and lint modules are allowed.

// interpreter judges python, node, perl, ruby and friends.
func interpreter(x *cmdCtx, args []word) {
	name := args[0].val
	base := strings.TrimRight(name, "0123456789.")
	rest := args[1:]
	if len(rest) == 0 && x.stdin != nil {
		x.inlineCode(name, *x.stdin)
		return
	}
	if len(rest) == 0 {
		x.add(Deny, RuleShellStdin, name+" with no script runs code read from its input, which nobody has seen")
		return
	}
	for _, w := range rest {
		if w.fetch {
			x.add(Deny, RuleShellStdin, name+" runs code a substitution downloads or decodes, which nobody has seen")
			return
		}
	}
	if len(rest) == 1 {
		switch rest[0].val {
		case "--version", "-V", "-v", "-version", "--help", "-h", "-VV":
			if !(base == "perl" && rest[0].val == "-V") {
				x.add(Allow, RuleInterpSafe, "prints the interpreter's version or help")
				return
			}
		}
	}
	switch base {
	case "python", "pypy":
		pythonCmd(x, name, rest)
	case "node", "nodejs":
		nodeCmd(x, name, rest)
	case "ruby":
		if code, ok := rubyInline(rest); ok {
			if tok := rubyRiskyToken(code); tok != "" {
				x.codeRisks(name, code)
				x.add(Ask, RuleInterpInline, name+" runs inline code that uses "+quoteShort(tok))
				return
			}
			x.inlineCode(name, code) // rubyinline.go
			return
		}
		fallthrough
	default:
		if base == "perl" && perlSubstInPlace(x, rest) { // perlsubst.go
			return
		}
		if in := inlineCodeOf(interpBase(name), rest); in.found { // inlinecode.go
			if in.static {
				if lang := devLang(base); lang != "" && x.devInline(name, lang, in.code) { // devinline.go
					return
				}
				x.codeRisks(name, in.code)
			}
			if base == "pwsh" || base == "powershell" {
				// Read even when the shell expands part of it (a
				// double-quoted $env:USERPROFILE): it can only deny.
				x.pwshInline(name, in.code) // pwshread.go
			}
			x.add(Ask, RuleInterpInline, name+" runs inline code")
			return
		}
		for i := 0; i < len(rest); i++ {
			w := rest[i]
			if base == "ruby" && !rubyScriptAt(rest, i) {
				continue
			}
			if w.val == "-" && w.static {
				// the script is its input, as python3 - reads it (polcorp12: elixir -, lua -, Rscript -)
				if x.stdin != nil {
					x.inlineCode(name, *x.stdin)
					return
				}
				x.add(Deny, RuleShellStdin, name+" - runs code read from its input")
				return
			}
			if p := pwshParam(strings.ToLower(w.val)); (base == "pwsh" || base == "powershell") && contains(pwshValued, p) {
				if p == "-workingdirectory" || p == "-wd" {
					x.add(Ask, RuleInterpScript, name+" -WorkingDirectory changes where its script runs")
				}
				i++ // pwsh -ExecutionPolicy Bypass: a value, not the script (pwshopts.go)
				continue
			}
			if !strings.HasPrefix(w.val, "-") {
				x.interpScript(name, w)
				return
			}
		}
		x.add(Ask, RuleInterpScript, name+" runs code from a file")
	}
}

var pythonSafeModules = wordSet{words: []string{"pytest", "unittest", "mypy", "pyflakes", "pylint", "flake8", "black",
	"ruff", "isort", "json.tool", "py_compile", "compileall", "doctest", "tabnanny", "coverage",
	"pycodestyle", "pydocstyle", "bandit", "pyright"}}

func pythonCmd(x *cmdCtx, name string, rest []word) {
	if in := inlineCodeOf("python", rest); in.found { // inlinecode.go
		if !in.static {
			x.add(Ask, RuleInterpInline, name+" -c runs inline code built from an expansion")
			return
		}
		x.inlineCode(name, in.code)
		return
	}
	for i := 0; i < len(rest); i++ {
		a := rest[i].val
		switch {
		case a == "-":
			if x.stdin != nil {
				x.inlineCode(name, *x.stdin)
				return
			}
			x.add(Deny, RuleShellStdin, name+" - runs code read from its input")
			return
		case a == "-m" || strings.HasPrefix(a, "-m") && !strings.HasPrefix(a, "--"):
			mod := strings.TrimPrefix(a, "-m")
			args := rest[i+1:]
			if mod == "" {
				if i+1 >= len(rest) {
					x.add(Ask, RuleInterpInline, name+" -m with no module")
					return
				}
				mod = rest[i+1].val
				args = rest[i+2:]
			}
			switch {
			case mod == "pip":
				// The pip program's handler, build verbs included (buildverbs.go).
				h, _ := handlerFor("pip")
				h(x, append([]word{{val: "pip", static: true}}, args...))
			case mod == "pytest":
				pytestCmd(x, append([]word{{val: "pytest", static: true}}, args...))
			case mod == "venv" || mod == "virtualenv":
				x.add(Allow, RuleFileWrite, "creates a virtual environment")
				for _, o := range operands(args, "", []string{"prompt"}) {
					x.write(o)
				}
			case pythonSafeModules.has(mod) && hasCodeHook(args):
				x.add(Ask, RuleBuildOption, name+" -m "+mod+": an option runs or loads code")
			case pythonSafeModules.has(mod):
				x.add(Allow, RuleInterpSafe, name+" -m "+mod+" runs a known test or inspection tool")
				for _, o := range operands(args, "kmpocnW", nil) {
					if looksLikePath(o.val) || strings.HasSuffix(o.val, ".py") {
						x.read(o)
					}
				}
			case mod == "http.server" && loopbackServer(x, args):
				x.add(Allow, RuleSandboxCode, name+" -m http.server serves the workspace on loopback, inside the sandbox's own network")
			case mod == "http.server" || mod == "smtpd" || mod == "ftplib":
				x.add(Ask, RuleNetTool, name+" -m "+mod+" opens network connections")
			case x.pythonModuleTool(name, mod, args): // pymodule_tools.go
			case x.workspaceModuleOff(mod): // pymodule_off.go
				x.add(Allow, RuleSandboxCode, name+" -m "+mod+" runs a module of the workspace, as `make test` runs the project's code (--sandbox off)")
			default:
				x.sandboxedCode(name+" -m "+mod+" runs a module of the project or its packages", RuleInterpScript, name+" -m "+mod+" runs a module the policy does not know")
			}
			return
		case a == "-W" || a == "-X" || a == "-Q":
			i++
		case a == "-i":
			x.add(Ask, RuleShellStdin, "an interactive interpreter")
		case strings.HasPrefix(a, "--"):
			if a == "--version" || a == "--help" {
				continue
			}
			x.add(Ask, RuleInterpScript, "an interpreter option the policy does not know: "+a)
		case strings.HasPrefix(a, "-"):
		default:
			x.interpScript(name, rest[i])
			return
		}
	}
	x.add(Allow, RuleInterpSafe, "prints interpreter information")
}

func nodeCmd(x *cmdCtx, name string, rest []word) {
	if in := inlineCodeOf("node", rest); in.found { // inlinecode.go
		if !in.static {
			x.add(Ask, RuleInterpInline, name+" runs inline code built from an expansion")
			return
		}
		x.inlineCode(name, in.code)
		return
	}
	for i := 0; i < len(rest); i++ {
		a := rest[i].val
		switch {
		case a == "-e" || a == "--eval" || a == "-p" || a == "--print" || strings.HasPrefix(a, "--eval=") || strings.HasPrefix(a, "--print=") || (strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a[1:], "ep")):
			x.add(Ask, RuleInterpInline, name+" runs inline code")
			return
		case a == "-r" || a == "--require" || a == "--import" || a == "--loader" || a == "--experimental-loader" ||
			strings.HasPrefix(a, "--require=") || strings.HasPrefix(a, "--import=") || strings.HasPrefix(a, "--loader="):
			x.add(Ask, RuleInterpScript, name+" preloads a module")
			i++
		case a == "--test":
			x.add(Allow, RuleBuildProject, "runs the project's tests")
			x.readStr(".")
			for _, o := range rest[i+1:] {
				if !strings.HasPrefix(o.val, "-") {
					x.read(o)
				}
			}
			return
		case a == "--run":
			x.add(Allow, RuleBuildProject, "runs a package.json script")
			return
		case a == "-c" || a == "--check":
		case a == "-":
			if x.stdin != nil {
				x.inlineCode(name, *x.stdin)
				return
			}
			x.add(Deny, RuleShellStdin, name+" - runs code read from its input")
			return
		case a == "-i" || a == "--interactive":
			x.add(Ask, RuleShellStdin, "an interactive interpreter")
		case strings.HasPrefix(a, "-"):
		default:
			x.nodeModulesPublish(rest[i:]) // runner_inner.go
			x.interpScript(name, rest[i])
			return
		}
	}
	x.add(Ask, RuleInterpScript, name+" with options the policy does not judge")
}

// interpScript judges an interpreter running the script file w: code this
// line writes is judged as inline code; a workspace script runs inside
// the sandbox; anything else asks.
func (x *cmdCtx) interpScript(name string, w word) {
	if x.ranWritten(w, func(text string) { x.inlineCode(name, text) }) {
		return
	}
	x.runScript(name, w, RuleInterpScript)
}

// hasCodeHook reports an option among args whose value is code
// (codeHookOption).
func hasCodeHook(args []word) bool {
	for _, a := range args {
		if codeHookOption(a.val) {
			return true
		}
	}
	return false
}
