package policy

import "strings"

// sbt tasks the project's own build defines. `sbt compile` already runs
// every line of build.sbt and project/*.scala, so a task those files
// define (fmt, coverage, coverageReport, an alias of the build) runs
// nothing compile would not: it passes like make's targets and just's
// recipes. What does not pass: sbt's own commands, which take Scala text,
// read commands from a file or change the session (set, eval, alias,
// apply, <, addPluginSbtFile, onFailure …); a task named for installing or
// for docker (the host daemon asks); a task with further words. A name for
// publishing is denied by sbtCmd as the publish tasks are. `project NAME`
// only picks one of the build's projects. Found by polcorp12 (sbt fmt,
// sbt clean coverage test coverageReport, sbt "project core" test).

// sbtOwnCommands are sbt's built-in commands outside sbtSafeTasks.
var sbtOwnCommands = wordSet{words: []string{"alias", "apply", "boot", "bspConfig", "client", "completions", "early", "exit",
	"export", "help", "history", "iflast", "inspect", "last", "lastGrep", "load", "loadp", "loadFailed", "notify", "onFailure",
	"onLoad", "onUnload", "plugin", "plugins", "reboot", "reload", "session", "set", "settings", "shell", "show", "startServer",
	"eval", "console", "consoleQuick", "consoleProject", "addPluginSbtFile", "oldshell", "shutdown", "writeSbtVersion",
	"clearCaches", "append", "reapply", "act", "debug", "info", "warn", "error", "project", "projects", "nop", "sbtVersion"}}

// sbtProjectTask: one ;-separated sbt command, split into words, is a task
// of the project's own build, or `project NAME`.
func sbtProjectTask(f []string) bool {
	if len(f) == 2 && f[0] == "project" {
		return sbtIdent(f[1])
	}
	if len(f) != 1 {
		return false
	}
	key := strings.TrimLeft(f[0], "+~")
	scope := ""
	if i := strings.LastIndexAny(key, "/:"); i >= 0 {
		scope, key = key[:i], key[i+1:]
	}
	if scope != "" && !sbtIdent(strings.ReplaceAll(strings.ReplaceAll(scope, "/", ""), ":", "")) {
		return false
	}
	low := strings.ToLower(key)
	return sbtIdent(key) && !sbtOwnCommands.has(key) && !strings.Contains(low, "install") && !strings.Contains(low, "docker")
}

// sbtIdent: a Scala identifier of letters, digits and _, as task, key and
// project names are.
func sbtIdent(v string) bool {
	if v == "" || !(v[0] >= 'a' && v[0] <= 'z' || v[0] >= 'A' && v[0] <= 'Z') {
		return false
	}
	for _, r := range v {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

// sbtPlainProps are JVM system properties of an sbt start that change only
// how it prints or reads text; any other -D (sbt.repository.config,
// sbt.boot.properties, sbt.global.base …) goes to the earlier handler.
var sbtPlainProps = wordSet{words: []string{"file.encoding", "sbt.log.noformat", "sbt.color", "sbt.supershell", "sbt.ci",
	"user.timezone", "java.awt.headless", "sbt.server.forcestart"}}

// sbtPlainProp: -Dkey=value with key in sbtPlainProps and a plain value.
func sbtPlainProp(v string) bool {
	k, val, ok := strings.Cut(strings.TrimPrefix(v, "-D"), "=")
	return strings.HasPrefix(v, "-D") && ok && sbtPlainProps.has(k) && val != "" && plainToken(val)
}
