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

// runsContent are the checks that can run code the content names (nginx
// loads the modules a config's load_module or perl_require names): such a
// check is running code, so it runs only for a client that may run any
// code here — exec not disabled, granted to it, and exec_mode unrestricted.
var runsContent = map[string]bool{"nginx": true}

// execGrantKey carries, from the OAuth grant gate to a tool, whether the
// calling client was granted exec; a call with no token (stdio, the
// static token) was.
type execGrantKey struct{}

func withExecGrant(ctx context.Context, ok bool) context.Context {
	return context.WithValue(ctx, execGrantKey{}, ok)
}

// mayRunCode says whether the client of ctx may run any code here.
func (s *Server) mayRunCode(ctx context.Context) bool {
	granted, told := ctx.Value(execGrantKey{}).(bool)
	return (granted || !told) && !s.cfg.disabled("exec") && s.cfg.ExecMode == ModeUnrestricted
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
	if runsContent[check] && !s.mayRunCode(ctx) {
		return &Refusal{Class: ClassValidation, Rule: "validate " + check,
			Reason: fmt.Sprintf("the %s check runs code the content names (load_module), and this client may not run code here (exec disabled, not granted, or exec_mode is not unrestricted); the file is unchanged", check),
			Use:    "edit with validate=none and check it yourself, or ask the person for exec_mode = \"unrestricted\""}
	}
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
	if len(res.Swept) > 0 { // the check made a git dir: it was moved out; nothing is written
		return &Refusal{Class: ClassValidation, Rule: "validate " + check, Reason: fmt.Sprintf("the %s check of %s made a git dir or pointer; %s; the file is unchanged", check, pl.Abs, strings.Join(res.Swept, "; ")),
			Use: "look at what the new content makes its check run"}
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
