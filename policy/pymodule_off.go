package policy

import (
	"os"
	"path/filepath"
	"strings"
)

// `python -m PKG.MOD` of the project's own module with the sandbox off
// (issue 32, off24): `python -m app.cli --help`, `PYTHONPATH=src python -m
// tokentoss.cli --help`. Python puts the working directory first on
// sys.path for -m, then PYTHONPATH's entries, so when the module's
// top-level package is found in the working directory (or, failing that,
// in a workspace directory the line's PYTHONPATH names) and the module's
// file is there, that file is what runs: the project's own script, as
// `python scripts/x.py` is (offcode.go). A top-level name found in
// neither is an installed package's and keeps asking, as does a line
// that wrote a file before.

// workspaceModuleOff reports whether mod resolves, in every directory the
// command may run in, to a file of the workspace (see above).
func (x *cmdCtx) workspaceModuleOff(mod string) bool { return x.workspacePyFileOff(mod, "__main__.py") }

// workspacePyFileOff is workspaceModuleOff with the file a package
// directory must hold named: __main__.py for -m, __init__.py for an
// import (inlineimports_off.go).
func (x *cmdCtx) workspacePyFileOff(mod, pkgFile string) bool {
	if x.c.sandbox || x.c.ws == "" || x.cw.unknown || x.writtenBefore() || len(x.cw.dirs) == 0 {
		return false
	}
	parts := strings.Split(mod, ".")
	for _, p := range parts {
		if !pyIdent(p) {
			return false
		}
	}
	var extra []string
	if x.part != nil {
		for _, as := range x.part.Assigns {
			if v, ok := strings.CutPrefix(as, "PYTHONPATH="); ok {
				extra = append(extra, strings.Split(v, ":")...)
			}
		}
	}
	ws := x.c.canon(x.c.ws)
	for _, d := range x.cw.dirs {
		path := []string{d}
		for _, e := range extra {
			path = append(path, rawJoin(d, e))
		}
		if !moduleInWorkspace(x, path, parts, ws, pkgFile) {
			return false
		}
	}
	return true
}

// moduleInWorkspace: the first directory of path holding the top-level
// name also holds the module's file, inside ws.
func moduleInWorkspace(x *cmdCtx, path, parts []string, ws, pkgFile string) bool {
	for _, dir := range path {
		dir = x.c.canon(dir)
		top := filepath.Join(dir, parts[0])
		if !exists(top) && !exists(top+".py") {
			continue
		}
		base := filepath.Join(append([]string{dir}, parts...)...)
		for _, f := range []string{base + ".py", filepath.Join(base, pkgFile)} {
			if c := x.c.canon(f); exists(c) && within(c, ws) && within(dir, ws) {
				return true
			}
		}
		return false
	}
	return false
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func pyIdent(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
