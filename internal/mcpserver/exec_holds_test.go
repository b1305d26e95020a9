//go:build unix

package mcpserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// What git would run is held for every command as the repositories say
// now, not as they said when the sandbox started: after the first command
// the person makes a nested repository whose config includes a file and
// names a hooks directory, and adds an include to the rw path's own
// repository; the next commands through the real server (stdio) cannot
// write any of them, nor the new repository's own hooks and config; the
// first names the repository as held, and it stays the person's (a
// command's sweep does not quarantine it).
func TestExecHoldsWhatARepositoryMadeMidSessionSendsGitTo(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	f := newFixture(t)
	gitInit(t, f.rw)
	cfg := mustConfig(t, `exec_mode = "unrestricted"
[[paths]]
path = "`+f.rw+`"
access = "rw"
`)
	cs, _ := stdioSession(t, cfg, Options{Helper: bin})
	if got := mustAllow(t, cs, "exec", map[string]any{"command": "echo started"}); !strings.Contains(got, "started") {
		t.Fatalf("the first command did not run: %s", got)
	}
	sub := filepath.Join(f.rw, "sub")
	gitInit(t, sub)
	gitConfig(t, sub, "include.path", "../../inc.cfg")
	gitConfig(t, sub, "core.hooksPath", "../hk")
	gitConfig(t, f.rw, "include.path", "../team.cfg")
	write(t, filepath.Join(f.rw, "inc.cfg"), "")
	evil := "[core]\n\tfsmonitor = touch /tmp/pwned\n"
	write(t, filepath.Join(f.rw, "evil.txt"), evil)
	first := true
	for _, p := range []string{
		filepath.Join(f.rw, "inc.cfg"),
		filepath.Join(f.rw, "hk", "pre-commit"),
		filepath.Join(sub, ".git", "hooks", "pre-commit"),
		filepath.Join(sub, ".git", "config"),
		filepath.Join(f.rw, "team.cfg"),
	} {
		line := `python3 -c "import sys; open(sys.argv[1], 'a').write(open(sys.argv[2]).read()); print('wrote')" ` + p + " evil.txt"
		got, _ := call(t, cs, "exec", map[string]any{"command": line})
		if !strings.Contains(got, "Read-only file system") || strings.Contains(got, "wrote") {
			t.Errorf("%s: the command was not held to read-only:\n%s", p, got)
		}
		if b, _ := os.ReadFile(p); strings.Contains(string(b), "fsmonitor") {
			t.Errorf("%s was written: %q", p, b)
		}
		if first && !strings.Contains(got, "held read-only: "+filepath.Join(sub, ".git")) {
			t.Errorf("the answer does not name the repository that appeared as held:\n%s", got)
		}
		first = false
	}
	// The person's repository is theirs: not quarantined by the sweeps.
	if _, err := os.Stat(filepath.Join(sub, ".git", "HEAD")); err != nil {
		t.Errorf("the person's new repository is gone: %v", err)
	}
}

// The look before a command finds a repository made since the start and
// what its config sends git to; adopted (no command ran during the look)
// it is the person's and the sweep leaves it, not adopted (a command ran)
// the sweep after that command quarantines it as before.
func TestHoldsNowFindsANewRepositoryAndAdoptsItOnlyWhenAsked(t *testing.T) {
	t.Parallel()

	for _, adopt := range []bool{true, false} {
		g, root := guarded(t)
		late := filepath.Join(root, "late")
		gitInit(t, late)
		gitConfig(t, late, "include.path", "../../late.cfg")
		held, _, fresh, err := g.holdsNow(t.Context(), []string{root})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{filepath.Join(late, ".git"), filepath.Join(root, "late.cfg")} {
			if !slices.Contains(held, w) {
				t.Errorf("not held: %s (held %q)", w, held)
			}
		}
		if got := fresh[root]; len(got) != 1 || got[0] != filepath.Join(late, ".git") {
			t.Fatalf("fresh: %q", got)
		}
		if adopt {
			g.adopt(fresh)
		}
		said := strings.Join(g.sweep(), "\n")
		if quarantined := strings.Contains(said, "quarantined a git dir this command made, "+filepath.Join(late, ".git")); quarantined == adopt {
			t.Errorf("adopted %v, yet the sweep said:\n%s", adopt, said)
		}
	}
}

// A git dir a command made that the sweep could not move out (the
// quarantine cannot be made: it stays where it is) is held by the next
// look but never adopted as the person's: each sweep names it again.
func TestHoldsNowNeverAdoptsWhatACommandMade(t *testing.T) {
	g, root := guarded(t)
	t.Setenv("XDG_STATE_HOME", "/dev/null/nowhere")
	tellPerson = func(string) {}
	t.Cleanup(func() { tellPerson = func(string) {} })
	made := filepath.Join(root, "made", ".git")
	gitInit(t, filepath.Dir(made))
	if said := strings.Join(g.sweep(), "\n"); !strings.Contains(said, "could not quarantine "+made) {
		t.Fatalf("the sweep moved it or did not say so:\n%s", said)
	}
	held, _, fresh, err := g.holdsNow(t.Context(), []string{root})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(held, made) {
		t.Errorf("the git dir the command made is not held: %q", held)
	}
	if len(fresh[root]) != 0 {
		t.Errorf("what a command made is taken for the person's: %q", fresh[root])
	}
	g.adopt(fresh)
	if said := strings.Join(g.sweep(), "\n"); !strings.Contains(said, "could not quarantine "+made) {
		t.Errorf("the next sweep does not name it again:\n%s", said)
	}
}
