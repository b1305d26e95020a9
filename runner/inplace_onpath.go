package runner

import (
	"os"

	"github.com/sentinelhq/sentinel/internal/runlater"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// A folder of the place on the person's PATH (an absolute or relative
// PATH entry, an .envrc's PATH_add: runlater.OnPath) runs an executable
// the coder made or changed there when the person next types its name,
// on the host. Which folders are on PATH is read when the checkpoint is
// taken, before the coder acts, from the PATH this process was started
// with (the person's shell's) and the person's .envrc files; each such
// executable is flagged at the end like any other run-later file.

// onPathOf reads which folders of the place at root are on the person's
// PATH, with before's .envrc files.
func onPathOf(root string, before *checkpoint.Manifest) runlater.PathDirs {
	return runlater.OnPath(root, os.Getenv("PATH"), filesNamed(root, before, isEnvrc)) // inplace_envrc.go
}

// onPathFlags flags each executable file or symlink of changes, made or
// changed, in a folder on PATH.
func onPathFlags(changes []checkpoint.Change, dirs runlater.PathDirs) []Flag {
	var out []Flag
	for _, c := range changes {
		a, b := c.After, c.Before
		if a == nil || !(a.Kind == checkpoint.KindSymlink || a.Kind == checkpoint.KindFile && a.Mode&0o111 != 0) {
			continue
		}
		if b != nil && b.Kind == a.Kind && b.Hash == a.Hash && b.Target == a.Target && b.Mode&0o111 == a.Mode&0o111 {
			continue
		}
		if how := dirs.Why(c.Path); how != "" {
			out = append(out, Flag{c.Path, "in a folder on your PATH (" + how + "): typing its name runs it on your machine, outside the sandbox"})
		}
	}
	return out
}
