package policy

import (
	"os"
	"path/filepath"
	"strings"
)

// go-task with the sandbox off (issue 32, off28). `task` is go-task or
// Taskwarrior, so off it asks in a workspace that says nothing. A Taskfile
// in the workspace (in a directory the line runs in, or the workspace's
// top) says the project uses go-task: `task build`, `task test:single --
// test/x_test.exs:12` then run the project's own Taskfile tasks, as `make
// test` and `just lint` run its targets and recipes off. It is judged as
// inside the sandbox (goTaskCmd): another Taskfile or directory, a
// variable, or a task that sounds like installing or publishing asks.
//
// If the person's `task` is Taskwarrior after all, its words that change
// or send the person's tasks (delete, modify, sync, import, execute …,
// and the prefixes Taskwarrior accepts for them) are not allowed as task
// names: Taskwarrior reads any word as a filter or a command, so a line
// holding one asks (taskwarriorWord).

// taskfileNames are the files go-task reads.
var taskfileNames = []string{"Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml",
	"Taskfile.dist.yml", "Taskfile.dist.yaml", "taskfile.dist.yml", "taskfile.dist.yaml"}

// goTaskfileHere reports whether a Taskfile stands in the workspace's top
// or in every directory the line may run the command in.
func (x *cmdCtx) goTaskfileHere() bool {
	if x.c.ws == "" || x.cw.unknown || x.writtenBefore() {
		return false
	}
	has := func(d string) bool {
		for _, n := range taskfileNames {
			f := x.c.canon(rawJoin(d, n))
			if !within(f, x.c.ws) {
				continue
			}
			if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() {
				return true
			}
		}
		return false
	}
	if has(x.c.ws) {
		return true
	}
	if len(x.cw.dirs) == 0 {
		return false
	}
	for _, d := range x.cw.dirs {
		if !has(filepath.Clean(d)) {
			return false
		}
	}
	return true
}

// taskwarriorCommands are Taskwarrior's commands that change, send or run
// something (its reports only print).
var taskwarriorCommands = []string{"add", "annotate", "append", "config", "context", "delete", "denotate", "done",
	"duplicate", "edit", "execute", "import", "log", "modify", "prepend", "purge", "start", "stop", "sync", "undo",
	"export", "synchronize", "news"}

// taskwarriorWord: w is one of those commands or a prefix of one of at
// least two letters (Taskwarrior's abbreviation.minimum), or names an rc
// override.
func taskwarriorWord(w string) bool {
	low := strings.ToLower(w)
	if strings.HasPrefix(low, "rc.") || strings.HasPrefix(low, "rc:") {
		return true
	}
	for _, c := range taskwarriorCommands {
		if len(low) >= 2 && strings.HasPrefix(c, low) {
			return true
		}
	}
	return false
}

// goTaskAllowReason says where go-task's tasks run.
func goTaskAllowReason(sandbox bool) string {
	if !sandbox {
		return "task runs the project's own Taskfile tasks, as `make test` runs its targets (--sandbox off)"
	}
	return "task runs the project's own Taskfile tasks, inside the sandbox"
}
