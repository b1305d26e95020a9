package runner

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/shellscope"
	"github.com/sentinelhq/sentinel/sandbox"
)

// passwdFile is where the passwd shell is read; a variable so that a test
// can give one of its own.
var passwdFile = "/etc/passwd"

// agentShell is a shell an agent may start its commands and hooks with,
// and why: where the agent finds it.
type agentShell struct{ path, how string }

// agentShells are the shells an in-place agent may start beyond the
// system ones shellscope.Places covers: Codex's passwd shell (when it is a
// bash, zsh or sh: /usr/local/bin/zsh for a person who set it so), $SHELL
// (Claude Code, opencode), and the first bash, zsh and sh on the sandbox's
// PATH (Gemini CLI runs `bash` from PATH for every command and hook; Codex
// and opencode fall back to it).
func agentShells(prof sandbox.Profile, root string) []agentShell {
	var out []agentShell
	if sh := passwdShell(os.Getuid()); sh != "" {
		out = append(out, agentShell{sh, "your passwd shell"})
	}
	if sh := envIn(prof, "SHELL"); sh != "" {
		out = append(out, agentShell{sh, "your SHELL"})
	}
	for _, name := range []string{"bash", "zsh", "sh"} {
		if p := lookIn(envIn(prof, "PATH"), name, root); p != "" {
			out = append(out, agentShell{p, "the " + name + " first on PATH"})
		}
	}
	return out
}

// agentShellsInScope shows the wrapper over each of agentShells that is a
// bash, zsh or sh the system shells do not already cover, with its real
// file at shellscope.RealDir+its path, and says so in the journal. One
// inside the project is not shown over (the coder's own file, which it
// could swap for another name the agent finds first): the journal says
// commands started with it are not kept in a scope.
func (r *containment) agentShellsInScope(prof sandbox.Profile, wrapper string, wrapped map[string]bool) sandbox.Profile {
	root := ""
	if r.opts.Project != nil {
		root = r.opts.Project.Root
	}
	for _, s := range agentShells(prof, root) {
		real, err := filepath.EvalSymlinks(s.path)
		if err != nil || wrapped[real] || !shellscope.Covers(real) {
			continue
		}
		if st, err := os.Stat(real); err != nil || !st.Mode().IsRegular() {
			continue
		}
		if root != "" && within(real, root) { // inplace_profile.go
			r.emit(journal.System, KindNotice, fmt.Sprintf("in place: %s (%q) is inside the project, where the coder can write: %s's commands started with it are not kept from signalling the hooks", s.how, real, r.adapter.Name()), nil)
			continue
		}
		prof.Places = append(prof.Places, sandbox.Place{Path: real, Source: wrapper},
			sandbox.Place{Path: shellscope.RealDir + real, Source: real})
		wrapped[real] = true
		r.emit(journal.System, KindNotice, fmt.Sprintf("in place: %s (%q) is kept in a signal scope like the system shells", s.how, real), nil)
	}
	return r.bashFirstOnPath(prof, wrapper, root)
}

// pathBashDir is the folder Gemini CLI's PATH starts with when a folder
// the coder can write comes before the system bash on it: it holds only
// bash (the wrapper, with the real bash at shellscope.RealDir+its path),
// under shellscope.RealDir, which is never writable.
const pathBashDir = shellscope.RealDir + "/path"

// bashFirstOnPath keeps Gemini CLI's `bash` (every command and every hook,
// looked up on PATH at each start) from being one the coder made: when a
// folder the coder can write (coderWrites: in the project — a relative
// PATH entry is —, the sandbox's private /tmp, or another root the sandbox
// makes writable) comes before the first bash on PATH, a bash the coder wrote there would run as
// the next hook, answering allow, outside any scope. Such a run's PATH
// starts with pathBashDir, and its journal says so.
func (r *containment) bashFirstOnPath(prof sandbox.Profile, wrapper, root string) sandbox.Profile {
	if r.adapter.Name() != "gemini" || root == "" {
		return prof
	}
	path := envIn(prof, "PATH")
	var before string
	for _, d := range filepath.SplitList(path) {
		abs := d
		if !filepath.IsAbs(d) {
			abs = filepath.Join(root, d)
		}
		if coderWrites(prof, root, abs) {
			before = d
			break
		}
		if lookIn(d, "bash", root) != "" {
			return prof // a bash the coder cannot write comes first
		}
	}
	if before == "" {
		return prof
	}
	bash, err := filepath.EvalSymlinks("/bin/bash")
	if err != nil {
		return prof
	}
	prof.Places = append(prof.Places, sandbox.Place{Path: pathBashDir + "/bash", Source: wrapper},
		sandbox.Place{Path: shellscope.RealDir + pathBashDir + "/bash", Source: bash})
	prof.Env = append(prof.Env, "PATH="+pathBashDir+string(filepath.ListSeparator)+path)
	r.emit(journal.System, KindNotice, fmt.Sprintf("in place: your PATH has %q, in the project, before any bash: gemini runs `bash` from PATH for every command and hook, so its PATH starts with %s (a bash the coder writes there is not run)", before, pathBashDir), nil)
	return prof
}

// coderWrites says whether dir (absolute) is one the sandbox of prof lets
// the coder write: in root (the project), the workspace, /tmp (the
// sandbox's own, whatever the host's holds) or a further writable root.
func coderWrites(prof sandbox.Profile, root, dir string) bool {
	for _, w := range append([]string{root, prof.Workspace, "/tmp"}, prof.Writable...) {
		if w != "" && within(dir, w) {
			return true
		}
	}
	return false
}

// envIn is key's value in the sandbox: the profile's last setting of it,
// else this process's (the sandbox passes it through).
func envIn(prof sandbox.Profile, key string) string {
	v := os.Getenv(key)
	for _, kv := range prof.Env {
		if x, ok := strings.CutPrefix(kv, key+"="); ok {
			v = x
		}
	}
	return v
}

// lookIn is the first executable regular file called name in the
// directories of path ("" when none). A relative directory is the agent's
// working directory's: in root.
func lookIn(path, name, root string) string {
	for _, d := range filepath.SplitList(path) {
		if !filepath.IsAbs(d) {
			if root == "" {
				continue
			}
			d = filepath.Join(root, d)
		}
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// passwdShell is uid's login shell in passwdFile ("" when not found).
func passwdShell(uid int) string {
	f, err := os.Open(passwdFile)
	if err != nil {
		return ""
	}
	defer f.Close()
	want := strconv.Itoa(uid)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if f := strings.Split(sc.Text(), ":"); len(f) == 7 && f[2] == want {
			return f[6]
		}
	}
	return ""
}
