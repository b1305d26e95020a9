package agentutil

// Stdio servers in a signal scope. In place, the commands and hooks an
// agent starts through a shell each enter a signal scope of their own
// (internal/shellscope: the system shells are the wrapper), but a program
// the agent starts directly — a stdio MCP server, a language server —
// stays in the agent's own (outer) Landlock domain, from which it may
// stop or kill every hook (Gemini CLI then runs the call). So each such
// server the run's configs name is started as
//
//	/bin/sh -c 'exec "$0" "$@"' COMMAND ARG...
//
// the system shell (the wrapper in place: it enters a scope, then execs
// the real shell, which execs the server with its own argv, found on PATH
// as the agent would). Outside the in-place sandbox /bin/sh is the real
// shell and the server starts as before.
//
// A command that starts with '-' would read as an option of exec (bash:
// "exec: -s: invalid option"; dash takes no "--" after exec), so it starts
// through ScopeScriptDash, where env runs it after "--" (a path such as
// "-dir/srv" starts as "./-dir/srv"). The rewrite is
// made only on Linux, where /bin/sh is Sentinel's wrapper in place;
// elsewhere (macOS, Windows, which may have no /bin/sh) argv is kept.

import (
	"runtime"
	"strings"
)

// ScopeShell and ScopeScript are the shell and script a scoped server
// starts through; ScopeScriptDash is the script for a command that starts
// with '-'.
const (
	ScopeShell      = "/bin/sh"
	ScopeScript     = `exec "$0" "$@"`
	ScopeScriptDash = `exec /usr/bin/env -- "$0" "$@"`
)

// scopeOS is the system the rewrite is for (a variable for tests).
var scopeOS = runtime.GOOS

// ScopedArgv is argv (a server's command and arguments) started through
// ScopeShell; an argv already so started, or empty, or any argv on a
// system other than Linux, is returned as it is.
func ScopedArgv(argv []string) []string {
	if len(argv) == 0 || IsScoped(argv) || scopeOS != "linux" {
		return argv
	}
	script := ScopeScript
	if strings.HasPrefix(argv[0], "-") {
		if strings.Contains(argv[0], "/") { // a path: the same file
			argv = append([]string{"./" + argv[0]}, argv[1:]...)
		} else { // a name on PATH
			script = ScopeScriptDash
		}
	}
	return append([]string{ScopeShell, "-c", script}, argv...)
}

// IsScoped reports whether argv starts through ScopeShell with
// ScopeScript or ScopeScriptDash and names a command.
func IsScoped(argv []string) bool {
	return len(argv) >= 4 && argv[0] == ScopeShell && argv[1] == "-c" &&
		(argv[2] == ScopeScript || argv[2] == ScopeScriptDash)
}

// ScopeCommandServers rewrites, in place, each server object of servers
// whose "command" is a string and whose "args" (when set) are strings —
// the stdio servers of Claude Code's, Gemini CLI's and Codex's configs —
// to start through ScopeShell. Servers without a command (http, sse) are
// left as they are. It returns how many it rewrote.
func ScopeCommandServers(servers map[string]any) int {
	n := 0
	for _, v := range servers {
		s, ok := v.(map[string]any)
		if !ok {
			continue
		}
		cmd, ok := s["command"].(string)
		if !ok || cmd == "" {
			continue
		}
		args := []string{}
		if a, set := s["args"]; set {
			if args, ok = StringList(a); !ok {
				continue // the agent refuses it as it is
			}
		}
		argv := append([]string{cmd}, args...)
		scoped := ScopedArgv(argv)
		if len(scoped) == len(argv) {
			continue // already scoped, or not on this system
		}
		s["command"] = scoped[0]
		s["args"] = AnyList(scoped[1:])
		n++
	}
	return n
}

// ScopeArgvServers does the same for servers whose "command" is the whole
// argv as a list (opencode's local MCP and LSP servers).
func ScopeArgvServers(servers map[string]any) int {
	n := 0
	for _, v := range servers {
		s, ok := v.(map[string]any)
		if !ok {
			continue
		}
		argv, ok := StringList(s["command"])
		if !ok || len(argv) == 0 {
			continue
		}
		scoped := ScopedArgv(argv)
		if len(scoped) == len(argv) {
			continue // already scoped, or not on this system
		}
		s["command"] = AnyList(scoped)
		n++
	}
	return n
}
