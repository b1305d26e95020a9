package runner

import (
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/placeflags"
	"github.com/sentinelhq/sentinel/internal/runlater"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// direnv asks for a new `direnv allow` only when an .envrc changes; a
// file it loads (source_env_if_exists local.sh, dotenv .env.dev, source_up,
// `. FILE`) runs on the next cd with no question, whatever its name. The
// person's .envrc files are read when the checkpoint is taken (before the
// coder acts), and a changed file one of them loads is flagged at the end
// like the .envrc itself.

// envrcReads are the person's .envrc files as read at the start, with
// the root they were read under.
type envrcReads struct {
	root   string
	envrcs []runlater.Envrc
}

// envrcLoads reads each of before's .envrc files under root.
func envrcLoads(root string, before *checkpoint.Manifest) envrcReads {
	out := envrcReads{root: root}
	for _, f := range placeflags.FilesNamed(root, before, placeflags.IsEnvrc) {
		out.envrcs = append(out.envrcs, runlater.ReadEnvrc(root, f))
	}
	return out
}

// envrcFlags flags each of files (relative, slash-separated) an .envrc
// loads: named outright, or through a name the .envrc gives in a way
// that cannot be read without running it (`source_env $F`), which the
// flag quotes so that the person sees what to look at.
func envrcFlags(files []string, loads envrcReads) []Flag {
	var out []Flag
	for _, f := range files {
		abs := filepath.Join(loads.root, filepath.FromSlash(f))
		for _, e := range loads.envrcs {
			how, ok := e.Loads(abs)
			if !ok {
				continue
			}
			rel, _ := filepath.Rel(loads.root, e.File)
			rel = filepath.ToSlash(rel)
			if how == "" {
				out = append(out, Flag{f, "your " + rel + " loads it: direnv runs it on cd with no new direnv allow"})
			} else {
				out = append(out, Flag{f, "your " + rel + " may load it (`" + how + "` names a file Sentinel cannot read without running it): direnv runs it on cd with no new direnv allow"})
			}
			break
		}
	}
	return out
}

// report is withCheckpoint's report with the files the person's .envrc
// files load, the files the person's makefiles include or run make on,
// the executables in a folder on the person's PATH, a changed script
// the person's Makefile, package.json, justfile or .envrc runs, a file
// a run-later link (a tracked .vscode linked to a folder) or a git hook
// (a link, or a script naming it) reaches, a
// Python module that `python -m` would import instead of the installed
// one, a file in a folder on PERL5LIB, RUBYLIB, NODE_PATH …
// (placeflags, inplace_makeinc.go) and a go.mod's new toolchain
// (inplace_gotoolchain.go) flagged too.
func (c *inPlaceCheckpoint) report(ch InPlaceChange, changes []checkpoint.Change, after *checkpoint.Manifest) InPlaceChange {
	ch = withCheckpoint(ch, changes, c.before, after)
	ch.Flagged = mergeFlags(ch.Flagged, envrcFlags(ch.Files, c.envrcLoads))
	ch.Flagged = mergeFlags(ch.Flagged, flagsOf(c.reads.Make(ch.Files)))
	ch.Flagged = mergeFlags(ch.Flagged, flagsOf(c.reads.OnPath(changes)))
	ch.Flagged = mergeFlags(ch.Flagged, flagsOf(c.reads.Scripts(changes)))
	ch.Flagged = mergeFlags(ch.Flagged, flagsOf(c.reads.Linked(changes))) // what a run-later link or a git hook reaches
	ch.Flagged = mergeFlags(ch.Flagged, flagsOf(c.reads.PythonShadows(changes, os.Getenv("PYTHONPATH"))))
	ch.Flagged = mergeFlags(ch.Flagged, flagsOf(c.reads.LibPathShadows(changes, os.Getenv))) // PERL5LIB, RUBYLIB, NODE_PATH …
	ch.Flagged = mergeFlags(ch.Flagged, c.goToolchainFlags(changes))                         // inplace_gotoolchain.go
	ch.Flagged = mergeFlags(ch.Flagged, c.sentinelEnvFlags(changes))                         // inplace_gotoolchain.go
	return ch
}
