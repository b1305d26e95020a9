package mcpserver

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/sentinelhq/sentinel/sandbox"
)

// guards are the locations the file tools keep to the sandbox's rules even
// inside a configured path: credential locations are never read or written
// (the sandbox hides them from commands), and each rw path's git hooks and
// config are never written (the sandbox keeps them read-only: they run code
// the next time someone uses git there).
type guards struct {
	hidden    []string
	protected []string
	onPath    []string // onpath.go
	rw        []string // the rw paths (a path itself is refused elsewhere)
	// includes are the files git config includes and the hooks
	// directories it names in the rw paths, found again as repositories
	// come (gitincludes_files.go).
	includes *includeFiles
}

func newGuards(c *Config) guards {
	home, _ := os.UserHomeDir()
	g := guards{onPath: onPath()}
	canon := func(p string) string {
		if a, err := Canonical(p); err == nil {
			return a
		}
		return filepath.Clean(p)
	}
	if home != "" {
		for _, h := range sandbox.DefaultProfile(home, home).Hidden {
			g.hidden = append(g.hidden, canon(h))
		}
	}
	var rw []string
	for _, p := range c.Paths {
		if p.Access == AccessReadWrite {
			g.protected = append(g.protected, protectedIn(p.real)...)
			rw = append(rw, p.real)
		}
	}
	g.includes = newIncludeFiles(rw)
	for _, r := range rw {
		g.rw = append(g.rw, canon(r))
	}
	for i, p := range g.protected {
		g.protected[i] = canon(p)
	}
	return g
}

// protectedIn is what the sandbox keeps read-only inside a writable root:
// git's hooks and config, and the person's Go build cache when it lies
// there (every host build trusts it).
func protectedIn(root string) []string {
	return append(sandbox.DefaultProfile(root, "").Protected, sandbox.GoCacheIn(root)...)
}

func (g guards) check(abs, want string) error {
	for _, h := range g.hidden {
		if withinFolded(abs, h) {
			return &Refusal{Class: ClassPathNotAllowed, Rule: "hidden credentials (" + h + ")", Reason: abs + " is a credential location Sentinel never shows",
				Use: "leave credentials out; ask the person if the task truly needs them"}
		}
	}
	if want == AccessReadWrite {
		includes, err := g.includes.current()
		if err != nil {
			return &Refusal{Class: ClassReadOnlyPath, Rule: "git config includes", Reason: "Sentinel cannot tell which files git config includes here, so it writes nothing: " + err.Error(),
				Use: "ask the person to narrow the rw paths"}
		}
		for _, p := range append(slices.Clone(g.protected), includes...) {
			if withinFolded(abs, p) { // guard_fold.go
				return &Refusal{Class: ClassReadOnlyPath, Rule: "protected (" + p + ")", Reason: abs + " runs code later outside the sandbox (git hooks and config, a file git config includes, the Go build cache), so it is kept read-only",
					Use: "ask the person to change it themselves"}
			}
			if withinFolded(p, abs) && !slices.Contains(g.rw, abs) {
				// Moving or deleting a directory that holds one would let
				// a new one be made in its place.
				return &Refusal{Class: ClassReadOnlyPath, Rule: "protected (" + p + ")", Reason: abs + " holds " + p + ", which runs code later outside the sandbox (git hooks and config, a file git config includes, the Go build cache), so it is kept as it is",
					Use: "ask the person to change it themselves"}
			}
		}
	}
	return nil
}
