package inplace

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// Issue 31, a variant of the nested repository: a file the person's git
// config includes is that config. When it lies in the place — the
// project's .git/config has `[include] path = ../team.gitconfig` (there) or
// includeIf.*.path naming a file not made yet, or the person's
// ~/.gitconfig has `[includeIf "gitdir:<folder>/"] path =
// <folder>/work.gitconfig` and exec runs in that folder of repositories
// (or a repository there includes ../../shared.gitconfig) —
// a coder that writes core.fsmonitor there runs its command on the host at
// the person's next git status. Each must stay as it was, on both
// backends; then git status on the host runs nothing. The same for the
// directory core.hooksPath names when an included file or the person's
// global config sets it: git commit on the host runs no hook of the coder;
// and for an included file that is a symbolic link the coder re-points.
func TestExecGitConfigIncludesStayThePersons(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ mode, place string }{{"bwrap", "project"}, {"bwrap", "folder"}, {"bwrap", "hooks"}, {"bwrap", "link"}, {"ns", "project"}, {"ns", "folder"}, {"ns", "hooks"}, {"ns", "link"}} {
		mode := c.mode
		t.Run(c.mode+"/"+c.place, func(t *testing.T) {
			t.Parallel() // each case its own project, home and state: eight sequential exec pairs were the package's longest test
			home, marks := t.TempDir(), t.TempDir()
			env := append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir(), "HOME="+home, "NO_COLOR=1")
			plant := func(name string) string {
				return fmt.Sprintf(`printf '[core]\n\tfsmonitor = touch %s; true\n' >> %s 2>/dev/null; `, filepath.Join(marks, name), name)
			}
			execIn := func(dir, script string) {
				t.Helper()
				cmd := exec.Command(e2etest.Bin, "exec", "--plain", "--sandbox", mode, "--", "/bin/sh", "-c", script+"true")
				cmd.Dir, cmd.Env = dir, env
				if b, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("sentinel exec in %s: %v\n%s", dir, err, b)
				}
			}
			hostStatus := func(dir string) {
				t.Helper()
				cmd := exec.Command("git", "status", "--porcelain")
				cmd.Dir, cmd.Env = dir, env
				_, _ = cmd.CombinedOutput()
				if ran, _ := os.ReadDir(marks); len(ran) > 0 {
					t.Fatalf("git status on the host in %s ran the coder's command (%s made)", dir, ran[0].Name())
				}
			}

			hostCommit := func(dir string) {
				t.Helper()
				e2etest.WriteFile(t, filepath.Join(dir, "commit.txt"), "c\n")
				cmd := exec.Command("git", "-c", "user.name=P", "-c", "user.email=p@p", "commit", "-qm", "c", "--", "commit.txt")
				cmd.Dir, cmd.Env = dir, env
				add := exec.Command("git", "add", "commit.txt")
				add.Dir, add.Env = dir, env
				_, _ = add.CombinedOutput()
				_, _ = cmd.CombinedOutput()
				if ran, _ := os.ReadDir(marks); len(ran) > 0 {
					t.Fatalf("git commit on the host in %s ran the coder's hook (%s made)", dir, ran[0].Name())
				}
			}
			if c.place == "hooks" {
				// core.hooksPath set by a file the project's config
				// includes, and by the person's global config (relative:
				// each repository's .githooks) for a folder of
				// repositories.
				dir := e2etest.ScratchRepo(t)
				e2etest.WriteFile(t, filepath.Join(dir, "tools", "git.cfg"), "[core]\n\thooksPath = tools/hooks\n")
				e2etest.Git(t, dir, "config", "include.path", "../tools/git.cfg")
				hook := func(d, name string) string {
					return fmt.Sprintf(`mkdir -p %s; printf '#!/bin/sh\ntouch %s\n' > %s/pre-commit 2>/dev/null; chmod +x %s/pre-commit 2>/dev/null; `, d, filepath.Join(marks, name), d, d)
				}
				execIn(dir, hook("tools/hooks", "include-hook"))
				hostCommit(dir)
				folder := t.TempDir()
				app := filepath.Join(folder, "app")
				e2etest.Git(t, folder, "init", "-q", app)
				e2etest.WriteFile(t, filepath.Join(app, "a.txt"), "a\n")
				e2etest.Git(t, app, "add", "a.txt")
				e2etest.Git(t, app, "commit", "-qm", "a")
				e2etest.WriteFile(t, filepath.Join(home, ".gitconfig"), "[core]\n\thooksPath = .githooks\n")
				execIn(folder, hook("app/.githooks", "global-hook"))
				hostCommit(app)
				return
			}
			if c.place == "link" {
				// The included file is a link: a read-only mount holds
				// what it points to, and the coder re-points the link.
				dir := e2etest.ScratchRepo(t)
				e2etest.WriteFile(t, filepath.Join(dir, "team.real"), "[user]\n\tname = Team\n")
				if err := os.Symlink("team.real", filepath.Join(dir, "team.gitconfig")); err != nil {
					t.Fatal(err)
				}
				e2etest.Git(t, dir, "config", "include.path", "../team.gitconfig")
				execIn(dir, strings.Replace(plant("evil.cfg"), ">> evil.cfg", "> evil.cfg", 1)+"ln -sf evil.cfg team.gitconfig; ")
				hostStatus(dir)
				return
			}
			if c.place == "project" {
				// The project's own config includes a file in the project.
				dir := e2etest.ScratchRepo(t)
				e2etest.WriteFile(t, filepath.Join(dir, "team.gitconfig"), "[user]\n\tname = Team\n")
				e2etest.Git(t, dir, "config", "include.path", "../team.gitconfig")
				e2etest.Git(t, dir, "config", "includeIf.gitdir:/.path", "../later.gitconfig")
				execIn(dir, plant("team.gitconfig")+plant("later.gitconfig"))
				if b, _ := os.ReadFile(filepath.Join(dir, "team.gitconfig")); string(b) != "[user]\n\tname = Team\n" {
					t.Errorf("the coder rewrote the included team.gitconfig:\n%s", b)
				}
				hostStatus(dir)
				return
			}
			// The person's global config includes a file in the folder of
			// repositories exec runs in.
			folder := t.TempDir()
			app := filepath.Join(folder, "app")
			e2etest.Git(t, folder, "init", "-q", app)
			e2etest.WriteFile(t, filepath.Join(app, "a.txt"), "a\n")
			e2etest.Git(t, app, "add", "a.txt")
			e2etest.Git(t, app, "commit", "-qm", "a")
			e2etest.WriteFile(t, filepath.Join(home, ".gitconfig"), fmt.Sprintf("[includeIf \"gitdir:%s/\"]\n\tpath = %s\n", folder, filepath.Join(folder, "work.gitconfig")))
			// And a repository there includes a file beside it.
			e2etest.Git(t, app, "config", "include.path", "../../shared.gitconfig")
			execIn(folder, plant("work.gitconfig")+plant("shared.gitconfig"))
			hostStatus(app)
		})
	}
}
