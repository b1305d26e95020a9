package policy

import "strings"

// Inline JavaScript reaches the environment through the process object by
// more spellings than `process.env`: process["env"], process['en'+'v'],
// const {env} = process, Reflect.get(process, "env"), with (process) env,
// globalThis["process"]. So `process` is a capability of its own: only the
// members below, written with a dot, only compute or print; any other use
// of the object (an index, a destructuring, passing it on) asks, as do
// Reflect, with-statements and the global object.

// processSafeMembers only report facts about the running program or print.
var processSafeMembers = wordSet{words: []string{"argv", "argv0", "version", "versions", "platform", "arch", "cwd",
	"exit", "exitcode", "stdout", "stderr", "pid", "ppid", "uptime", "hrtime", "memoryusage", "nexttick", "release",
	"title", "execpath", "features", "cpuusage", "resourceusage", "emitwarning"}}

// benignProcess reports whether every use of the word `process` in the
// (lower-cased) code is a dot and one of processSafeMembers; a longer
// identifier containing it (subprocess, multiprocessing, processData) is
// not the object.
func benignProcess(low string) bool {
	const w = "process"
	for i := 0; ; {
		j := strings.Index(low[i:], w)
		if j < 0 {
			return true
		}
		at := i + j
		end := at + len(w)
		i = end
		if at > 0 && (isIdent(low[at-1]) || low[at-1] == '$') || end < len(low) && (isIdent(low[end]) || low[end] == '$') {
			continue // part of another name
		}
		if end >= len(low) || low[end] != '.' {
			return false
		}
		k := end + 1
		for k < len(low) && isIdent(low[k]) {
			k++
		}
		if !processSafeMembers.has(low[end+1 : k]) {
			return false
		}
	}
}
