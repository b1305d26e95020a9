package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/userstate"

	"github.com/sentinelhq/sentinel/internal/hostbin"
)

// identityWorld is a person's home and a repository, with a git on PATH
// that counts its starts before running the real one.
type identityWorld struct {
	home, repo, log string
}

func newIdentityWorld(t *testing.T) identityWorld {
	t.Helper()
	realGit, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	w := identityWorld{home: t.TempDir(), repo: t.TempDir()}
	bin := t.TempDir()
	w.log = filepath.Join(bin, "starts")
	script := "#!/bin/sh\necho x >> '" + w.log + "'\nexec '" + realGit + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Cleanup(hostbin.SetDirsForTest([]string{bin})) // Sentinel takes git only from system dirs
	t.Setenv("HOME", w.home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("XDG_STATE_HOME", filepath.Join(w.home, ".local", "state"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "GIT_") && k != "GIT_CONFIG_NOSYSTEM" {
			t.Setenv(k, "")
			os.Unsetenv(k)
		}
	}
	w.git(t, "init", "-q", "-b", "main")
	return w
}

func (w identityWorld) git(t *testing.T, args ...string) {
	t.Helper()
	c := exec.Command("git", args...)
	c.Dir = w.repo
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func (w identityWorld) write(t *testing.T, rel, content string) {
	t.Helper()
	p := filepath.Join(w.home, rel)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (w identityWorld) starts(t *testing.T) int {
	t.Helper()
	b, _ := os.ReadFile(w.log)
	return strings.Count(string(b), "x")
}

// check asks for the identity and holds it to want, and to whether git
// was started for it.
func (w identityWorld) check(t *testing.T, step, want string, started bool) {
	t.Helper()
	before := w.starts(t)
	name, email := GitIdentity(w.repo)
	if got := name + " <" + email + ">"; got != want {
		t.Errorf("%s: identity %q, want %q", step, got, want)
	}
	if ran := w.starts(t) > before; ran != started {
		t.Errorf("%s: git started %v, want %v", step, ran, started)
	}
}

// The identity is git's answer, kept while nothing it may come from
// changes: the global config, an include that did not exist, an includeIf
// that follows the branch, the repository's own config.
func TestGitIdentityIsKeptUntilItsSourcesChange(t *testing.T) {
	w := newIdentityWorld(t)
	w.write(t, ".gitconfig", "[user]\n\tname = Ada\n\temail = ada@example.com\n[include]\n\tpath = ~/more.gitconfig\n")
	w.check(t, "first", "Ada <ada@example.com>", true)
	w.check(t, "again", "Ada <ada@example.com>", false)

	w.write(t, ".gitconfig", "[user]\n\tname = Bea\n\temail = bea@example.com\n[include]\n\tpath = ~/more.gitconfig\n")
	w.check(t, "global config changed", "Bea <bea@example.com>", true)

	w.write(t, "more.gitconfig", "[user]\n\tname = Cy\n")
	w.check(t, "a missing include appeared", "Cy <bea@example.com>", true)
	w.check(t, "again", "Cy <bea@example.com>", false)

	w.write(t, "feature.gitconfig", "[user]\n\temail = cy@feature.example\n")
	w.git(t, "config", "includeIf.onbranch:feature.path", filepath.Join(w.home, "feature.gitconfig"))
	w.check(t, "repository config changed", "Cy <bea@example.com>", true)
	w.git(t, "checkout", "-q", "-b", "feature")
	w.check(t, "the branch changed", "Cy <cy@feature.example>", true)

	w.git(t, "config", "user.name", "Local")
	w.check(t, "a repository's own name", "Local <cy@feature.example>", true)
	w.check(t, "again", "Local <cy@feature.example>", false)

	t.Setenv("GIT_CONFIG_COUNT", "1")
	t.Setenv("GIT_CONFIG_KEY_0", "user.name")
	t.Setenv("GIT_CONFIG_VALUE_0", "Env")
	w.check(t, "a GIT_CONFIG_* variable", "Env <cy@feature.example>", true)
}

// A kept answer that is not as it was signed is not used.
func TestGitIdentityIgnoresATamperedCache(t *testing.T) {
	w := newIdentityWorld(t)
	w.write(t, ".gitconfig", "[user]\n\tname = Ada\n\temail = ada@example.com\n")
	w.check(t, "first", "Ada <ada@example.com>", true)
	p, err := userstate.Path(identityCache.File)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil || !strings.Contains(string(b), "Ada") {
		t.Fatalf("the cache holds %s (%v)", b, err)
	}
	if err := os.WriteFile(p, []byte(strings.ReplaceAll(string(b), "Ada", "Eve")), 0o600); err != nil {
		t.Fatal(err)
	}
	w.check(t, "tampered", "Ada <ada@example.com>", true)
	if err := os.WriteFile(p, []byte("not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	w.check(t, "garbled", "Ada <ada@example.com>", true)
}

// Each workspace has its own answer.
func TestGitIdentityIsKeptPerWorkspace(t *testing.T) {
	w := newIdentityWorld(t)
	w.write(t, ".gitconfig", "[user]\n\tname = Ada\n\temail = ada@example.com\n")
	w.git(t, "config", "user.email", "ada@work.example")
	other := t.TempDir()
	w.check(t, "repository", "Ada <ada@work.example>", true)
	if name, email := GitIdentity(other); name+email != "Adaada@example.com" {
		t.Errorf("another workspace: %q %q", name, email)
	}
	w.check(t, "the repository again", "Ada <ada@work.example>", false)
}

// An include named by another user's home (~user/…) cannot be stamped, so
// an answer that depends on one is asked of git every time.
func TestGitIdentityWithAnIncludeItCannotPlaceIsNotKept(t *testing.T) {
	w := newIdentityWorld(t)
	w.write(t, ".gitconfig", "[user]\n\tname = Ada\n\temail = ada@example.com\n[include]\n\tpath = ~nobody/.gitconfig\n")
	w.check(t, "first", "Ada <ada@example.com>", true)
	w.check(t, "again", "Ada <ada@example.com>", true)
}

// git's own work in the repository (an index written, a commit, a lock
// come and gone) changes nothing the identity comes from: it is kept.
func TestGitIdentityIsKeptThroughGitsOwnWork(t *testing.T) {
	w := newIdentityWorld(t)
	w.write(t, ".gitconfig", "[user]\n\tname = Ada\n\temail = ada@example.com\n")
	w.check(t, "first", "Ada <ada@example.com>", true)
	if err := os.WriteFile(filepath.Join(w.repo, "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	w.git(t, "add", "f")
	w.git(t, "commit", "-q", "-m", "one")
	w.check(t, "after an add and a commit", "Ada <ada@example.com>", false)
}

// A config changed while git reads it is not kept as what git read: the
// next start asks again and sees the change.
func TestGitIdentityChangedWhileGitAnswersIsNotKept(t *testing.T) {
	realGit, err := exec.LookPath("git") // before the world puts its counting git first
	if err != nil {
		t.Skip("no git")
	}
	w := newIdentityWorld(t)
	w.write(t, ".gitconfig", "[user]\n\tname = Ada\n\temail = ada@example.com\n")
	// This git answers, then the person's config changes before it exits.
	script := "#!/bin/sh\necho x >> '" + w.log + "'\n'" + realGit + "' \"$@\"\nrc=$?\n" +
		"printf '[user]\\n\\tname = Bea\\n\\temail = bea@example.com\\n' > '" + filepath.Join(w.home, ".gitconfig") + "'\nexit $rc\n"
	wrapper, _ := exec.LookPath("git")
	if wrapper == realGit {
		t.Fatal("the world's git is not first on PATH")
	}
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	w.check(t, "while it changes", "Ada <ada@example.com>", true)
	w.check(t, "after", "Bea <bea@example.com>", true)
}
