package shellscope

import (
	"os"
	"path/filepath"
	"slices"
)

// RealDir is where the sandbox shows the real shells: the real file of
// /usr/bin/bash at RealDir+"/usr/bin/bash". Outside every location the
// sandbox shows (so a place there is made in its own root) and never
// writable.
const RealDir = "/.sentinel-shells"

// ScopeABI is the Landlock ABI that has LANDLOCK_SCOPE_SIGNAL.
const ScopeABI = 6

// Shells are the system shells an agent may start, by the paths it starts
// them with (Codex: the passwd shell /bin/bash, /bin/sh for dash; Claude
// Code: $SHELL, bash or zsh).
var Shells = []string{
	"/bin/bash", "/usr/bin/bash", "/bin/sh", "/usr/bin/sh", "/bin/dash", "/usr/bin/dash",
	"/bin/zsh", "/usr/bin/zsh",
}

// names are the base names of the shells' real files the wrapper answers
// to (Invoked).
var names = []string{"bash", "sh", "dash", "zsh"}

// Places are the sandbox places (in Shells' order) that show wrapper (a host file: the
// program whose main calls Invoked first) over each of Shells' real files
// on this host and the real file at RealDir+its path. Symlinks (/bin on a
// merged /usr, /bin/sh → dash) are followed, so each real file is covered
// once and every name reaching it runs the wrapper.
func Places(wrapper string) []Place {
	var out []Place
	seen := map[string]bool{}
	for _, s := range Shells {
		real, err := filepath.EvalSymlinks(s)
		if err != nil || !slices.Contains(names, filepath.Base(real)) {
			continue
		}
		if st, err := os.Stat(real); err != nil || !st.Mode().IsRegular() {
			continue
		}
		if !seen[real] {
			seen[real] = true
			out = append(out, Place{Path: real, Source: wrapper}, Place{Path: RealDir + real, Source: real})
		}
	}
	return out
}

// Covers reports whether the wrapper answers to a shell whose real file
// (symlinks resolved) is at path: its base name is one of the system
// shells'. A shell an agent starts from elsewhere (a passwd shell under
// /usr/local, the bash first on PATH) is covered by showing the wrapper
// over that file too, with the file at RealDir+path (runner).
func Covers(path string) bool { return slices.Contains(names, filepath.Base(path)) }

// Place is one file the sandbox shows: Source (a host file) at Path.
type Place struct{ Path, Source string }
