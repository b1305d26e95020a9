package agents

import (
	"os/exec"
	"path/filepath"
	"strings"
)

// The one reader of "which agent is this program": by its file name, by the
// package directory it lies in, or as the script an interpreter runs. It
// matches names and package paths only, never arguments further on:
// `sentinel run -- claude` is Sentinel, not claude.

// Identify says which agent a running process is, from its executable's
// path (as the kernel resolved it), its kernel name (comm: for a script,
// the script's file name) and its argv; nil when it is none. The user
// service's scanner reads processes through it.
func Identify(exe, comm string, argv []string) *Agent {
	a, _ := identify(exe, comm, argv, nil)
	return a
}

// Of says which agent argv starts (nil for any other program) and where its
// own arguments begin: by the program's name, by the package its path
// resolves into (through PATH and links), or through an interpreter
// (node .../cli.js). It reads only the file system's links, never the
// program. sentinel exec reads argv through it.
func Of(argv []string) (a *Agent, argsAt int) {
	if len(argv) == 0 {
		return nil, 0
	}
	return identify(argv[0], "", argv, resolve)
}

// identify is Identify and Of: resolve (nil: none) turns a program path
// into the file it runs.
func identify(exe, comm string, argv []string, resolve func(string) string) (*Agent, int) {
	if isInterpreter(filepath.Base(exe)) || (exe == "" && len(argv) > 0 && isInterpreter(filepath.Base(argv[0]))) {
		if i := scriptArg(argv); i > 0 {
			if a := pathAgent(argv[i], resolve); a != nil {
				return a, i + 1
			}
		}
		// A shebang script started by path: the kernel names the process
		// after the script.
		return byName(comm), 1
	}
	if a := pathAgent(exe, resolve); a != nil {
		return a, 1
	}
	if exe == "" && len(argv) > 0 {
		return pathAgent(argv[0], resolve), 1
	}
	return nil, 1
}

// resolve is the file a program runs: found on PATH when it has no slash,
// its links followed; the program as given when either fails.
func resolve(prog string) string {
	p := prog
	if !strings.Contains(p, "/") {
		lp, err := exec.LookPath(p)
		if err != nil {
			return prog
		}
		p = lp
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	return p
}

// pathAgent is the agent a program path names, or, through resolve, the
// file it runs.
func pathAgent(path string, resolve func(string) string) *Agent {
	if a := programOf(path); a != nil {
		return a
	}
	if resolve != nil {
		return programOf(resolve(path))
	}
	return nil
}

// interpreters run a script named by their first argument that is not an
// option: the agent is the script, not the interpreter.
var interpreters = map[string]bool{
	"node": true, "nodejs": true, "bun": true, "deno": true,
	"python": true, "python3": true, "sh": true, "bash": true, "dash": true, "zsh": true,
}

func isInterpreter(base string) bool {
	base = strings.TrimSuffix(base, ".exe")
	if interpreters[base] {
		return true
	}
	// python3.12, node22 and the like.
	for _, p := range []string{"python3.", "node"} {
		if strings.HasPrefix(base, p) && strings.Trim(strings.TrimPrefix(base, p), "0123456789.") == "" {
			return true
		}
	}
	return false
}

// scriptArg is the index of the interpreter's first argument that is not
// an option (`node --no-warnings /usr/bin/codex`); 0 for `node -e ...` and
// the like.
func scriptArg(argv []string) int {
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "-e", a == "-c", a == "--eval", a == "-p", a == "--print", a == "-m":
			return 0
		case strings.HasPrefix(a, "-"):
			continue
		}
		return i
	}
	return 0
}

// programOf is the agent a path names: by its file name (claude,
// claude.exe, codex.js) or by a package directory it lies under.
func programOf(path string) *Agent {
	if path == "" {
		return nil
	}
	if a := byName(filepath.Base(path)); a != nil {
		return a
	}
	slashed := "/" + filepath.ToSlash(path) // a relative node_modules/… too
	for _, a := range all {
		for _, dir := range a.Packages {
			if strings.Contains(slashed, "/node_modules/"+dir+"/") || strings.Contains(slashed, "/site-packages/"+dir+"/") {
				return a
			}
		}
	}
	return nil
}

// byName is the agent a file name is, once a .exe, .js, .mjs or .cjs is
// taken off.
func byName(base string) *Agent {
	for _, ext := range []string{".exe", ".js", ".mjs", ".cjs"} {
		base = strings.TrimSuffix(base, ext)
	}
	if base == "" {
		return nil
	}
	return Lookup(base)
}

// Script is the script an interpreter process runs (exe is the
// interpreter: node, python3, sh…): its first argument that is not an
// option; "" when exe is no interpreter or runs no script.
func Script(exe string, argv []string) string {
	if !isInterpreter(filepath.Base(exe)) {
		return ""
	}
	if i := scriptArg(argv); i > 0 {
		return argv[i]
	}
	return ""
}
