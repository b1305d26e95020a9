package policy

import "strings"

// A data project's notebook tools (issue 32, polcorp15), beside jupyter
// nbconvert (notebooks.go). jupyter execute runs a notebook's cells as
// nbconvert --execute does: the project's code, allowed inside the sandbox
// and asked with it off. papermill IN OUT runs IN with parameters into OUT,
// likewise. jupytext converts between notebook formats and nbstripout
// strips outputs: both only rewrite the project's files, as a formatter
// does, and run nothing. jupyter kernelspec list prints. Options that run a
// program (jupytext --pipe, --check, --exec, --execute), install a git
// filter or hook (nbstripout --install), or name a configuration, kernel or
// template ask; the notebooks and outputs are judged as reads and writes
// (an output in the person's home or a URL is not the workspace).

// The tools' options: flags and valued options that only choose a format,
// an output, a timeout or parameters.
var (
	nbExecFlags     = wordSet{words: []string{"--inplace", "--allow-errors"}}
	nbExecValued    = wordSet{words: []string{"--timeout", "--startup_timeout"}}
	papermillFlags  = wordSet{words: []string{"--log-output", "--no-progress-bar", "--report-mode", "--request-save-on-cell-execute"}}
	papermillValued = wordSet{words: []string{"-p", "--parameters", "-r", "--parameters_raw", "--execution-timeout", "--start-timeout"}}
	jupytextKnown   = wordSet{words: []string{"--sync", "--update", "--quiet", "-q", "--diff", "--test", "--to", "--from", "--opt", "--set-formats", "-o", "--output"}}
	jupytextValued  = wordSet{words: []string{"--to", "--from", "--opt", "--set-formats", "-o", "--output"}}
	nbstripoutKnown = wordSet{words: []string{"--keep-output", "--keep-count", "--keep-id", "--dry-run", "--verify", "--drop-empty-cells", "--strip-init-cells"}}
	noValued        = wordSet{}
)

// addNotebookToolHandlers registers papermill, jupytext and nbstripout,
// and jupyter's execute and kernelspec list before its nbconvert handler.
func addNotebookToolHandlers(handlers map[string]handler) {
	prev := handlers["jupyter"]
	handlers["jupyter"] = func(x *cmdCtx, args []word) {
		switch {
		case len(args) >= 3 && args[1].val == "kernelspec" && args[2].val == "list" && (len(args) == 3 || len(args) == 4 && args[3].val == "--json"):
			x.add(Allow, RuleReadOnly, "jupyter kernelspec list prints the installed kernels")
		case len(args) >= 2 && args[1].val == "execute":
			notebookRun(x, "jupyter execute", args[2:], &nbExecFlags, &nbExecValued, false)
		default:
			prev(x, args)
		}
	}
	handlers["papermill"] = func(x *cmdCtx, args []word) {
		notebookRun(x, "papermill", args[1:], &papermillFlags, &papermillValued, true)
	}
	handlers["jupytext"] = func(x *cmdCtx, args []word) {
		notebookRewrite(x, "jupytext", args[1:], &jupytextKnown, &jupytextValued)
	}
	handlers["nbstripout"] = func(x *cmdCtx, args []word) {
		notebookRewrite(x, "nbstripout", args[1:], &nbstripoutKnown, &noValued)
	}
}

// notebookRun judges a tool that runs notebooks: flags it may carry, valued
// options (whose value, for -p/-r, is a name and a value), and the
// notebooks it reads; with twoOps the second operand is the output it
// writes.
func notebookRun(x *cmdCtx, tool string, args []word, flags, valued *wordSet, twoOps bool) {
	var ops []word
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, hasVal := strings.Cut(a.val, "=")
		switch {
		case !a.static || a.brace:
			x.add(Ask, RulePathUnknown, tool+" is given a word not known before it runs")
			return
		case flags.has(a.val):
		case valued.has(name):
			if !hasVal {
				i++
				if name == "-p" || name == "--parameters" || name == "-r" || name == "--parameters_raw" {
					i++ // NAME VALUE
				}
			}
		case strings.HasPrefix(a.val, "-"):
			x.add(Ask, RuleBuildOption, tool+" "+name+" names a kernel, configuration or place the policy does not judge")
			return
		default:
			ops = append(ops, a)
		}
	}
	if len(ops) == 0 || twoOps && len(ops) != 2 {
		x.add(Ask, RuleBuildOption, tool+" without the notebooks it runs")
		return
	}
	x.sandboxedCode(tool+" runs the project's notebook cells", RuleInterpScript, tool+" runs the project's notebook cells, and the sandbox is off")
	x.inWorkspace()
	in := ops
	if twoOps {
		in = ops[:1]
		if strings.Contains(ops[1].val, "://") {
			x.add(Ask, RuleNetTool, tool+" writes its output to "+quoteShort(ops[1].val))
			return
		}
		x.write(ops[1])
	}
	for _, n := range in {
		if strings.Contains(n.val, "://") {
			x.add(Ask, RuleNetTool, tool+" reads a notebook from "+quoteShort(n.val))
			return
		}
		x.read(n)
		x.write(n) // --inplace
	}
}

// notebookRewrite judges a tool that rewrites notebooks and runs nothing:
// its known options (valued taking a value), then each notebook read and
// written.
func notebookRewrite(x *cmdCtx, tool string, args []word, known, valued *wordSet) {
	var ops []word
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, hasVal := strings.Cut(a.val, "=")
		switch {
		case !a.static || a.brace:
			x.add(Ask, RulePathUnknown, tool+" is given a word not known before it runs")
			return
		case known.has(name):
			if valued.has(name) && !hasVal {
				i++
				if i < len(args) && (name == "-o" || name == "--output") {
					x.write(args[i])
				}
			} else if hasVal && (name == "-o" || name == "--output") {
				x.writeStr(a.val[len(name)+1:])
			}
		case strings.HasPrefix(a.val, "-"):
			x.add(Ask, RuleBuildOption, tool+" "+name+" runs a program, installs a filter or names a configuration")
			return
		default:
			ops = append(ops, a)
		}
	}
	if len(ops) == 0 {
		x.add(Ask, RuleBuildOption, tool+" without a notebook")
		return
	}
	x.add(Allow, RuleBuildProject, tool+" rewrites the project's notebooks and runs nothing")
	x.inWorkspace()
	for _, n := range ops {
		x.read(n)
		x.write(n)
	}
}
