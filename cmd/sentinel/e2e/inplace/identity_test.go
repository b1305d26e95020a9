package inplace

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// A landed commit is the person's (their user.name and user.email, read
// from their own git config), crediting the coder and the run in trailers;
// the coder's own git commits as the person too. A person with no identity
// gets Sentinel's.
func TestLandedCommitCarriesThePersonsIdentity(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	home := t.TempDir()
	e2etest.WriteFile(t, filepath.Join(home, ".gitconfig"), "[user]\n\tname = Pat Person\n\temail = pat@example.com\n[credential]\n\thelper = store\n")
	env := []string{"HOME=" + home, "XDG_CACHE_HOME=" + t.TempDir(), "XDG_STATE_HOME=" + t.TempDir(),
		"GIT_AUTHOR_NAME=", "GIT_AUTHOR_EMAIL=", "GIT_COMMITTER_NAME=", "GIT_COMMITTER_EMAIL=", "GIT_CONFIG_GLOBAL=" + filepath.Join(home, ".gitconfig")}
	script := "echo hi > out.txt; git var GIT_AUTHOR_IDENT | cut -d'>' -f1"
	res := e2etest.Sentinel(t, dir, env, "run", "--plain", "--coder", "command", "make out.txt", "--", "sh", "-c", script)
	if res.Code != 0 {
		t.Fatalf("exit %d: %s\n%s", res.Code, res.Stderr, res.Stdout)
	}
	// The sandbox line says what the coder sees of the person's setup.
	if !strings.Contains(res.Stdout, "build caches per project; 1 credential file(s) hidden") {
		t.Errorf("the sandbox line does not name the caches and the hidden .gitconfig:\n%s", res.Stdout)
	}
	if !strings.Contains(res.Stdout, "Pat Person <pat@example.com") {
		t.Errorf("git inside the run does not know the person:\n%s", res.Stdout)
	}
	branch := e2etest.Git(t, dir, "branch", "--list", "sentinel/*", "--format=%(refname:short)")
	if got := e2etest.Git(t, dir, "log", "-1", "--format=%an <%ae>|%cn <%ce>", branch); got != "Pat Person <pat@example.com>|Pat Person <pat@example.com>" {
		t.Errorf("landed commit by %q, want the person's identity", got)
	}
	msg := e2etest.Git(t, dir, "log", "-1", "--format=%B", branch)
	trailers := e2etest.Git(t, dir, "log", "-1", "--format=%(trailers:only,unfold)", branch)
	run := strings.TrimPrefix(branch, "sentinel/")
	for _, want := range []string{"Sentinel-Run: " + run, "Co-authored-by: command (via Sentinel) <sentinel@localhost>"} {
		if !strings.Contains(trailers, want) {
			t.Errorf("trailer %q missing; message:\n%s", want, msg)
		}
	}

	// No identity anywhere: Sentinel's, as before.
	dir2 := e2etest.ScratchRepo(t)
	env2 := append(env, "HOME="+t.TempDir(), "GIT_CONFIG_GLOBAL=/dev/null")
	if res := e2etest.Sentinel(t, dir2, env2, "run", "--plain", "--coder", "command", "make out.txt", "--", "sh", "-c", "echo hi > out.txt"); res.Code != 0 {
		t.Fatalf("exit %d: %s\n%s", res.Code, res.Stderr, res.Stdout)
	}
	branch2 := e2etest.Git(t, dir2, "branch", "--list", "sentinel/*", "--format=%(refname:short)")
	if got := e2etest.Git(t, dir2, "log", "-1", "--format=%an <%ae>", branch2); got != "Sentinel <sentinel@localhost>" {
		t.Errorf("landed commit without a person's identity by %q, want Sentinel's", got)
	}
}
