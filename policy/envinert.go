package policy

import "strings"

// A variable the policy has no entry for is judged by its value (issue 32:
// "judge the value, not the name"): XDEBUG_MODE=coverage,
// MSBUILDDISABLENODEREUSE=1, SPRING_PROFILES_ACTIVE=test switch a tool's
// own behaviour and run nothing. A value is inert when it is a number or a
// plain token (letters, digits, _ , : -) that is not a shell, an
// interpreter or a program that runs what it is given, and the name does not say that it holds a program, a file, a
// place or code (…_CMD, …_PATH, …_HOOKS, …_URL, …). The classes checked
// before it (execVars, LD_*, GIT_*, NODE_*, PYTHON*, *_OPTS, *FLAGS, …)
// still decide their names.

// programNameParts mark a variable whose value is run, loaded or read, or
// handed to a tool as its arguments (MAVEN_ARGS=deploy runs mvn deploy):
// ARGS, OPTS, OPTIONS, FLAGS, GOALS match as a prefix or suffix of a part.
var programNameParts = []string{"CMD", "COMMAND", "EXEC", "PROG", "BIN", "SHELL", "EDITOR", "PAGER", "WRAPPER", "HOOK",
	"HOME", "DIR", "PATH", "FILE", "CONF", "CFG", "RC", "URL", "URI", "HOST", "SERVER", "REGISTRY", "INDEX", "ENDPOINT",
	"PRELOAD", "LOAD", "PLUGIN", "INIT", "PROFILER", "SCRIPT", "MODULE", "LIB", "INCLUDE", "REQUIRE", "STARTUP", "RUNNER",
	"PROXY", "SOCKET", "SOCK", "ADDR", "KEY", "TOKEN", "SECRET", "PASS", "CERT", "CA", "ASKPASS", "INTERPRETER", "LAUNCHER",
	"TOOL", "DRIVER", "COMPILER", "LINKER", "ENGINE", "AGENT", "TEMPLATE", "OUT", "LOG", "DEST", "TARGET", "ROOT", "PREFIX",
	"OPT", "ARG", "FLAG", "ARGS", "ARGV", "OPTS", "OPTION", "FLAGS", "GOAL", "PARAM", "SWITCH", "ENV", "TERM", "BROWSER", "DISPLAY", "LANG", "IFS", "PS"}

// inertSetting reports an unknown variable set to an inert value.
func inertSetting(upName, value string) bool {
	for _, part := range strings.FieldsFunc(upName, func(r rune) bool { return r == '_' }) {
		for _, p := range programNameParts {
			if part == p || strings.HasPrefix(part, p) && len(p) >= 4 || strings.HasSuffix(part, p) && len(p) >= 4 {
				return false
			}
		}
	}
	if value == "" || len(value) > 64 || strings.HasPrefix(value, "-") {
		return false
	}
	digits := true
	for _, r := range value {
		switch {
		case r >= '0' && r <= '9', r == '.':
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r == '_', r == ',', r == ':', r == '-':
			digits = false
		default:
			return false
		}
	}
	if digits {
		return true
	}
	if strings.Contains(value, ".") {
		return false
	}
	for _, tok := range strings.FieldsFunc(value, func(r rune) bool { return r == ',' || r == ':' }) {
		if codeRunners.has(strings.ToLower(tok)) {
			return false // a program that runs any code it is given
		}
	}
	return true
}

// codeRunners run whatever text or command they are handed.
var codeRunners = wordSet{words: []string{"sh", "bash", "zsh", "dash", "ksh", "fish", "csh", "tcsh", "busybox", "python",
	"python2", "python3", "node", "nodejs", "deno", "bun", "perl", "ruby", "php", "lua", "tclsh", "env", "xargs", "eval",
	"exec", "nc", "ncat", "socat", "curl", "wget", "sudo", "su", "doas", "osascript", "pwsh", "powershell", "cmd", "vim", "vi", "emacs", "less", "more"}}
