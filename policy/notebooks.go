package policy

import (
	"path/filepath"
	"strings"
)

// jupyter nbconvert turns the project's notebooks into other formats and,
// with --execute, runs their cells: the project's own code, like `python
// script.py`. It also loads jupyter_nbconvert_config.py from the working
// directory. So inside the sandbox a conversion of workspace notebooks
// with known options is allowed (its outputs judged as writes). With the
// sandbox off (off30) a conversion without --execute is allowed too: it
// runs no cell, and jupyter_nbconvert_config.py in the working directory
// is the project's own code, as a workspace script run through python is
// (offcode.go); a line that wrote a file before it asks, as runScript
// does. --execute asks off: the kernel the notebook or
// --ExecutePreprocessor.kernel_name names is any the person installed,
// remote kernels (a cluster, a cloud workspace) among them. Templates, configuration files, preprocessors
// or exporters named on the line, and every other jupyter command (servers
// among them), ask.

// nbconvertValued are nbconvert's options that take a value and only
// choose a format, an output place or a timeout.
var nbconvertValued = wordSet{words: []string{"--to", "--output", "--output-dir", "--log-level",
	"--ExecutePreprocessor.timeout", "--ExecutePreprocessor.kernel_name", "--ExecutePreprocessor.allow_errors",
	"--ExecutePreprocessor.enabled"}}

var nbconvertFlags = wordSet{words: []string{"--execute", "--inplace", "--stdout", "--allow-errors", "--no-input",
	"--no-prompt", "--clear-output", "--debug", "--embed-images", "--sanitize-html"}}

func jupyterCmd(x *cmdCtx, args []word) {
	if len(args) == 2 && (args[1].val == "--version" || args[1].val == "--paths") {
		x.add(Allow, RuleReadOnly, "prints jupyter's versions or paths")
		return
	}
	if len(args) < 2 || args[1].val != "nbconvert" {
		x.add(Ask, RuleUnknownCommand, "jupyter commands other than nbconvert (servers among them) are not judged")
		return
	}
	var notebooks, outputs []word
	execute := false
	for i := 2; i < len(args); i++ {
		a := args[i]
		if !a.static || a.brace {
			x.add(Ask, RulePathUnknown, "a jupyter argument that cannot be known before it runs")
			return
		}
		name, val, hasVal := strings.Cut(a.val, "=")
		switch {
		case a.val == "--execute":
			execute = true
		case nbconvertFlags.has(a.val):
		case nbconvertValued.has(name):
			if !hasVal {
				if i+1 >= len(args) {
					x.add(Ask, RuleBuildOption, "jupyter nbconvert "+name+" without its value")
					return
				}
				i++
				val = args[i].val
			}
			switch name {
			case "--output":
				outputs = append(outputs, word{val: val, static: true})
			case "--output-dir":
				outputs = append(outputs, word{val: filepath.Join(val, "glob-match"), static: true})
			}
		case strings.HasPrefix(a.val, "-"):
			x.add(Ask, RuleBuildOption, "jupyter nbconvert "+name+" loads a template, configuration or code the line does not show")
			return
		default:
			notebooks = append(notebooks, a)
		}
	}
	if len(notebooks) == 0 {
		x.add(Ask, RuleBuildOption, "jupyter nbconvert without a notebook")
		return
	}
	if !x.c.sandbox && !execute && !x.writtenBefore() {
		x.add(Allow, RuleSandboxCode, "jupyter nbconvert converts the project's notebooks without running them; its configuration in the working directory is the project's own code, as `make test` runs it (--sandbox off)")
	} else {
		x.sandboxedCode("jupyter nbconvert converts (and may run) the project's notebooks", RuleInterpScript,
			"jupyter nbconvert runs the project's notebook cells and configuration, and the sandbox is off")
	}
	x.inWorkspace()
	for _, n := range notebooks {
		x.read(n)
		x.write(n) // --inplace, or an output beside it
	}
	for _, o := range outputs {
		x.write(o)
	}
}
