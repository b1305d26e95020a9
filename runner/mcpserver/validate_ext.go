package mcpserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Validators that need a program (python, nginx, systemd) check a copy of
// the new content: it is written beside the file under a name Sentinel
// makes (so relative includes resolve as they will), checked by the
// program inside the sandbox (a config can name modules or files that the
// check loads, so it never runs outside), and removed. The real file is
// written only after the check passed.

// programCheck is the command line that checks the file name (in the
// file's directory); name holds only characters Sentinel chose.
type programCheck func(name string) string

var programChecks = map[string]programCheck{
	// compile only: py_compile would leave a __pycache__; -I ignores the
	// environment, the user's site dir and the current directory.
	"python": func(name string) string {
		return `python3 -I -c 'import sys; compile(open(sys.argv[1], "rb").read(), sys.argv[1], "exec")' ` + name
	},
	"nginx": func(name string) string {
		return `nginx -t -q -e stderr -p "$PWD" -c "$PWD/` + name + `" -g 'pid /dev/null;'`
	},
	"systemd": func(name string) string {
		// --user with a private runtime dir: the system manager's /run is
		// not there in the sandbox, and verifying needs no manager.
		return `XDG_RUNTIME_DIR="$(mktemp -d)" systemd-analyze --user verify --man=no -- ./` + name
	},
}

var programExt = map[string]string{
	".py": "python", ".service": "systemd", ".socket": "systemd", ".timer": "systemd",
	".mount": "systemd", ".path": "systemd", ".target": "systemd",
}

// programFor is the program check an edit of path gets with validate
// name, or "".
func programFor(name, path string) string {
	if _, ok := programChecks[name]; ok {
		return name
	}
	if name == "" || name == "auto" {
		if v, ok := programExt[strings.ToLower(filepath.Ext(path))]; ok {
			return v
		}
		if strings.HasSuffix(path, ".conf") && strings.Contains(filepath.ToSlash(path), "/nginx/") {
			return "nginx"
		}
	}
	return ""
}

// checkWithProgram runs the named program check on data as a copy beside
// r's entry; a failing check is a validation refusal naming the output.
func (s *Server) checkWithProgram(ctx context.Context, check string, r reached, data []byte) error {
	pl := r.pl
	ext := filepath.Ext(pl.Abs)
	if strings.ContainsFunc(ext, func(c rune) bool {
		return !(c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9')
	}) {
		ext = ""
	}
	name := "sentinel-check-" + randHex() + ext
	f, err := r.dir.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fileErr(pl, err)
	}
	defer r.dir.Remove(name)
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fmt.Errorf("validate %s: write the copy: %w (nothing changed)", pl.Abs, werr)
	}
	res, err := s.run.run(ctx, filepath.Dir(pl.Abs), programChecks[check](name))
	if err != nil {
		return fmt.Errorf("validate %s with %s: %w (nothing changed)", pl.Abs, check, err)
	}
	if res.Exit == 127 {
		return &Refusal{Class: ClassValidation, Rule: "validate " + check, Reason: fmt.Sprintf("the %s check cannot run here (its program is not installed); the file is unchanged", check),
			Use: "install it, or edit with validate=none if you are sure"}
	}
	if res.Exit != 0 {
		out := strings.ReplaceAll(string(res.Output), name, filepath.Base(pl.Abs))
		return &Refusal{Class: ClassValidation, Rule: "validate " + check, Reason: fmt.Sprintf("the new content of %s is not valid %s (exit %d): %s; rolled back, the file is unchanged", pl.Abs, check, res.Exit, strings.TrimSpace(argSummary(out))),
			Use: "fix the content and edit again (or validate=none if it is meant to be so)"}
	}
	return nil
}
