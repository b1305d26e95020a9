package service

import (
	"path/filepath"
	"strings"
)

// programs are the agents the scanner looks for, by the name people type.
var programs = []string{"claude", "codex", "gemini", "opencode", "aider", "goose"}

// Programs lists the agents the scanner looks for (a copy).
func Programs() []string { return append([]string(nil), programs...) }

// packageDirs name the package directories node- and python-hosted agents
// live in: a script path under one of them is that agent whatever the
// script's own name (cli.js, index.js, ...).
var packageDirs = map[string]string{
	"@anthropic-ai/claude-code": "claude",
	"@openai/codex":             "codex",
	"@google/gemini-cli":        "gemini",
	"opencode-ai":               "opencode",
	"aider-chat":                "aider",
	"aider":                     "aider",
}

// interpreters run a script named by their first argument that is not an
// option: the agent is the script, not the interpreter.
var interpreters = map[string]bool{
	"node": true, "nodejs": true, "bun": true, "deno": true,
	"python": true, "python3": true, "sh": true, "bash": true, "dash": true, "zsh": true,
}

// Identify says which agent a process is, from its executable's path, its
// kernel name (comm: for a script, the script's file name) and its argv;
// "" when it is none. It matches names and package paths only, never
// arguments further on: `sentinel run -- claude` is Sentinel, not claude.
func Identify(exe, comm string, argv []string) string {
	base := filepath.Base(exe)
	if isInterpreter(base) || (exe == "" && len(argv) > 0 && isInterpreter(filepath.Base(argv[0]))) {
		if p := scriptArg(argv); p != "" {
			if name := programOf(p); name != "" {
				return name
			}
		}
		// A shebang script started by path: the kernel names the process
		// after the script.
		return programName(comm)
	}
	if name := programOf(exe); name != "" {
		return name
	}
	if exe == "" && len(argv) > 0 {
		return programOf(argv[0])
	}
	return ""
}

func isInterpreter(base string) bool {
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

// scriptArg is the interpreter's first argument that is not an option
// (`node --no-warnings /usr/bin/codex`); "" for `node -e ...` and the like.
func scriptArg(argv []string) string {
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "-e", a == "-c", a == "--eval", a == "-p", a == "--print", a == "-m":
			return ""
		case strings.HasPrefix(a, "-"):
			continue
		}
		return a
	}
	return ""
}

// programOf is the agent a path names: by its file name (claude,
// claude.exe, codex.js) or by a package directory it lies under.
func programOf(path string) string {
	if path == "" {
		return ""
	}
	if name := programName(filepath.Base(path)); name != "" {
		return name
	}
	slashed := filepath.ToSlash(path)
	for dir, name := range packageDirs {
		if strings.Contains(slashed, "/node_modules/"+dir+"/") || strings.Contains(slashed, "/site-packages/"+dir+"/") {
			return name
		}
	}
	return ""
}

// programName is the agent a file name is, once a .exe, .js, .mjs or .cjs
// is taken off.
func programName(base string) string {
	for _, ext := range []string{".exe", ".js", ".mjs", ".cjs"} {
		base = strings.TrimSuffix(base, ext)
	}
	for _, p := range programs {
		if base == p {
			return p
		}
	}
	return ""
}
