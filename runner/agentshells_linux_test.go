package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/shellscope"
	"github.com/sentinelhq/sentinel/sandbox"
)

// shellFile writes an executable regular file at path (a shell's stand-in).
func shellFile(t *testing.T, path string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/true\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

// The shells an agent starts from outside /bin and /usr/bin are kept in
// the scope too: Codex's passwd shell (a zsh under /usr/local), the bash
// first on PATH (Gemini CLI runs `bash` from PATH; Codex and opencode
// fall back to it) and $SHELL: each is shown as the wrapper with its real
// file at RealDir, and the journal says so. One inside the project is
// not (the coder's file), and the journal says its commands are not kept
// in a scope. Seen failing without agentShellsInScope: none of the three
// was wrapped, nothing said. Not parallel: it sets SHELL and PATH and
// swaps scopeABI and passwdFile.
func TestInPlaceAgentShellsOutsideTheSystemDirsAreScoped(t *testing.T) {
	if len(shellscope.Places("/w")) == 0 {
		t.Skip("no system shell on this host")
	}
	defer func(old func() int, pw string) { scopeABI, passwdFile = old, pw }(scopeABI, passwdFile)
	scopeABI = func() int { return 6 }
	tmp := t.TempDir()
	zsh := shellFile(t, filepath.Join(tmp, "local", "bin", "zsh"))
	bash := shellFile(t, filepath.Join(tmp, "opt", "bin", "bash"))
	ownSh := shellFile(t, filepath.Join(tmp, "home", "bin", "zsh"))
	passwdFile = filepath.Join(tmp, "passwd")
	uid := os.Getuid()
	e := fmt.Sprintf("other:x:%d:0::/x:/bin/false\nme:x:%d:0::/home/me:%s\n", uid+1, uid, zsh)
	if err := os.WriteFile(passwdFile, []byte(e), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", filepath.Dir(bash)+":"+os.Getenv("PATH"))
	t.Setenv("SHELL", ownSh)
	shown := func(p sandbox.Profile, wrapper, real string) bool {
		return slices.Contains(p.Places, sandbox.Place{Path: real, Source: wrapper}) &&
			slices.Contains(p.Places, sandbox.Place{Path: shellscope.RealDir + real, Source: real})
	}
	wrapper, err := os.Executable() // withShellScope takes the helper or this binary
	if err != nil {
		t.Fatal(err)
	}
	for _, coder := range []string{"codex", "gemini", "opencode", "claude"} {
		r, path := scopeRun(t, coder)
		r.opts.Project = &Project{Root: filepath.Join(tmp, "project")}
		p := r.withShellScope(sandbox.Profile{})
		if len(p.Places) == 0 {
			t.Fatalf("%s: no wrapper shown", coder)
		}
		wrapper = p.Places[0].Source
		for _, real := range []string{zsh, bash, ownSh} {
			if !shown(p, wrapper, real) {
				t.Errorf("%s: %s is not shown as the wrapper with its real file at %s", coder, real, shellscope.RealDir+real)
			}
		}
		if sh := envIn(p, "SHELL"); sh != ownSh {
			t.Errorf("%s: SHELL in the sandbox = %q, want the person's %q (covered, so not pinned)", coder, sh, ownSh)
		}
		said := journalTexts(t, path)
		if !slices.ContainsFunc(said, func(s string) bool {
			return strings.Contains(s, `your passwd shell ("`+zsh+`") is kept in a signal scope`)
		}) {
			t.Errorf("%s: the journal does not name the passwd shell: %q", coder, said)
		}
	}
	// A bash first on PATH inside the project is the coder's: not shown
	// over, and said.
	inside := shellFile(t, filepath.Join(tmp, "project", "bin", "bash"))
	t.Setenv("PATH", filepath.Dir(inside)+":"+os.Getenv("PATH"))
	r, path := scopeRun(t, "gemini")
	r.opts.Project = &Project{Root: filepath.Join(tmp, "project")}
	if p := r.withShellScope(sandbox.Profile{}); shown(p, wrapper, inside) {
		t.Errorf("the project's own bash is shown as the wrapper")
	}
	if said := journalTexts(t, path); !slices.ContainsFunc(said, func(s string) bool {
		return strings.Contains(s, `the bash first on PATH ("`+inside+`") is inside the project`) && strings.Contains(s, "gemini's commands started with it are not kept")
	}) {
		t.Errorf("the journal does not say the project's bash is not kept in a scope: %q", said)
	}
}

// journalTexts is every event's text in the journal at path.
func journalTexts(t *testing.T, path string) []string {
	t.Helper()
	evs, err := journal.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, ev := range evs {
		out = append(out, ev.Text)
	}
	return out
}

// Gemini CLI looks `bash` up on PATH at every command and hook: with a
// folder of the project ahead of the system bash on PATH (here a relative
// entry and an absolute one), a bash the coder wrote there would be the
// next hook. Its PATH then starts with a folder that holds only the
// wrapped bash, and the journal says why; with the system bash first, or
// for another agent, PATH is left alone. Seen failing without
// bashFirstOnPath (PATH unchanged).
func TestInPlaceGeminiBashComesFirstOnPath(t *testing.T) {
	bash, err := filepath.EvalSymlinks("/bin/bash")
	if err != nil || len(shellscope.Places("/w")) == 0 {
		t.Skip("no /bin/bash on this host")
	}
	defer func(old func() int) { scopeABI = old }(scopeABI)
	scopeABI = func() int { return 6 }
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	sys := os.Getenv("PATH")
	runHome := "/srv/sentinel-run-home" // a further root the sandbox makes writable (the agent's run home), outside /tmp
	for _, c := range []struct {
		coder, path string
		first       bool
	}{
		{"gemini", "bin:" + sys, true},
		{"gemini", filepath.Join(root, "bin") + ":" + sys, true},
		{"gemini", sys + ":" + filepath.Join(root, "bin"), false},
		{"codex", filepath.Join(root, "bin") + ":" + sys, false},
		// the sandbox's private /tmp and its other writable roots are the
		// coder's as much as the project is (review)
		{"gemini", "/tmp/tools/bin:" + sys, true},
		{"gemini", filepath.Join(runHome, ".local/bin") + ":" + sys, true},
	} {
		t.Setenv("PATH", c.path)
		r, jpath := scopeRun(t, c.coder)
		r.opts.Project = &Project{Root: root}
		p := r.withShellScope(sandbox.Profile{Writable: []string{runHome}})
		got := envIn(p, "PATH")
		first := strings.HasPrefix(got, pathBashDir+":") && slices.Contains(p.Places, sandbox.Place{Path: shellscope.RealDir + pathBashDir + "/bash", Source: bash})
		if first != c.first || (first && got != pathBashDir+":"+c.path) || (!first && got != c.path) {
			t.Errorf("%s with PATH %q: the sandbox's PATH = %q (its own bash first: %v, want %v)", c.coder, c.path, got, first, c.first)
		}
		said := slices.ContainsFunc(journalTexts(t, jpath), func(s string) bool { return strings.Contains(s, "so its PATH starts with "+pathBashDir) })
		if said != c.first {
			t.Errorf("%s with PATH %q: said %v, want %v", c.coder, c.path, said, c.first)
		}
	}
}
