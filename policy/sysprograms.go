package policy

import (
	"path/filepath"
	"strings"
)

// Programs named by their full path in a system directory (/usr/bin/env,
// /usr/bin/../bin/rm) are the system's programs of that name: the sandbox
// shows those directories read-only.

// systemDirs hold the system's own programs; the sandbox shows them
// read-only, so a program named by its path there is that program.
var systemDirs = []string{"/bin/", "/usr/bin/", "/sbin/", "/usr/sbin/"}

// systemProgram returns the name of a program given by its full path in a
// system directory (/usr/bin/env → env); anything else is not one.
func systemProgram(prog string) (string, bool) {
	for _, d := range systemDirs {
		if rest, ok := strings.CutPrefix(prog, d); ok && rest != "" && !strings.ContainsAny(rest, "/") && rest != "." && rest != ".." {
			return rest, true
		}
	}
	return "", false
}

// resolvedProgram is systemProgram for a path written any way that
// reaches a system directory: /usr/bin/../bin/rm is rm. The directory is
// resolved the way the kernel would (system directories are not the
// coder's to change); the name itself is kept, so /usr/bin/sh stays sh.
func resolvedProgram(prog string) (string, bool) {
	if base, ok := systemProgram(prog); ok {
		return base, true
	}
	if !strings.HasPrefix(prog, "/") || strings.HasSuffix(prog, "/") {
		return "", false
	}
	dir, base := filepath.Dir(prog), filepath.Base(prog)
	if base == "." || base == ".." {
		return "", false
	}
	d := canonical(dir)
	if d == "" {
		return "", false
	}
	return systemProgram(d + "/" + base)
}
