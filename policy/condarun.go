package policy

import "strings"

// conda, mamba and micromamba in a data project (issue 32, polcorp15):
// `conda run -n ENV CMD` runs CMD in a named environment as `uv run CMD`
// runs it in the project's, so CMD is what is judged (envRunner,
// handlers_python.go) in both sandbox modes. `conda activate ENV` and
// `conda deactivate` change the shell's PATH to an environment's programs
// and fetch nothing; `conda env export` prints the environment's packages.
// The environment is named by a plain name: a prefix path (-p), a name
// not known before it runs, or any other option is left to the tool's
// handler (remoteTool: it talks to remote services and asks), as are
// install, create, update and the rest.

// condaRunFlags are conda run's options that change only how output is
// passed through.
var condaRunFlags = wordSet{words: []string{"--no-capture-output", "--live-stream", "-q", "--quiet", "-v", "--verbose"}}

// condaEnvCmd judges conda's run, activate, deactivate and env export
// forms; false when args is none of them.
func condaEnvCmd(x *cmdCtx, args []word) bool {
	if len(args) < 2 || !args[1].static {
		return false
	}
	tool := args[0].val
	switch args[1].val {
	case "deactivate":
		if len(args) == 2 {
			x.add(Allow, RuleReadOnly, tool+" deactivate restores the shell's PATH")
			return true
		}
	case "activate":
		if len(args) == 3 && condaEnvName(args[2]) {
			x.add(Allow, RuleReadOnly, tool+" activate puts a named environment's programs on the shell's PATH")
			return true
		}
	case "env":
		if len(args) >= 3 && args[2].val == "export" && condaExportPlain(args[3:]) {
			x.add(Allow, RuleReadOnly, tool+" env export prints the environment's packages")
			return true
		}
	case "run":
		return condaRun(x, args)
	}
	return false
}

// condaRun judges conda run [-n ENV] [flags] CMD as CMD run in the
// project's environment (envRunner's judgment, which reads the form with
// condaRunSplit).
func condaRun(x *cmdCtx, args []word) bool {
	if cmd, _, ok := condaRunSplit(args); !ok || cmd == nil {
		return false
	}
	return envRunner(x, args)
}

// condaRunSplit reads conda run's form for readEnvRunner: cmd is CMD; ok is
// false when args is not a run of a plainly named environment with known
// options (the tool's handler judges it).
func condaRunSplit(args []word) (cmd []word, bad string, ok bool) {
	if len(args) < 3 || args[1].val != "run" {
		return nil, "", false
	}
	rest := args[2:]
	for len(rest) > 0 && strings.HasPrefix(rest[0].val, "-") {
		w := rest[0]
		name, val, eq := strings.Cut(w.val, "=")
		switch {
		case !w.static:
			return nil, "", false
		case condaRunFlags.has(w.val):
			rest = rest[1:]
		case (name == "-n" || name == "--name") && eq && condaEnvName(word{val: val, static: true}):
			rest = rest[1:]
		case (name == "-n" || name == "--name") && !eq && len(rest) > 1 && condaEnvName(rest[1]):
			rest = rest[2:]
		default:
			return nil, "", false
		}
	}
	if len(rest) == 0 {
		return nil, "", false
	}
	return rest, "", true
}

// condaEnvName: a plain environment name known before the line runs.
func condaEnvName(w word) bool {
	return w.static && !w.brace && plainToken(w.val) && !strings.ContainsAny(w.val, "/~.$")
}

// condaExportPlain: env export's options that only choose what is printed.
func condaExportPlain(args []word) bool {
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case !w.static:
			return false
		case w.val == "--from-history" || w.val == "--no-builds" || w.val == "--json" || w.val == "-q" || w.val == "--quiet":
		case (w.val == "-n" || w.val == "--name") && i+1 < len(args) && condaEnvName(args[i+1]):
			i++
		default:
			return false
		}
	}
	return true
}
