package inplace

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// The hostile coder of issue 31 in place: every git dir under the place is
// the person's. Each test runs the real binary on both backends and reads
// the result from the host without running git in the attacked
// repositories (treeDigest), so a planted fsmonitor or hook cannot run
// while the test looks.

// inPlaceBackends are the sandbox backends the in-place tests attack.
func inPlaceBackends(t *testing.T) []string {
	t.Helper()
	bs := []string{"ns"}
	if _, err := exec.LookPath("bwrap"); err == nil {
		bs = append(bs, "bwrap")
	} else if os.Getenv("CI") == "true" {
		t.Fatal("bwrap is not installed (CI=true): apt-get install -y bubblewrap")
	}
	return bs
}

// treeDigest is every entry under dir (names, kinds, modes, contents,
// link targets), read without following links.
func treeDigest(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(&b, "%s %v", rel, info.Mode())
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			fmt.Fprintf(&b, " -> %s", l)
		case info.Mode().IsRegular():
			c, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, " %x", sha256.Sum256(c))
		}
		b.WriteString("\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// committedRepo is a repository with one commit of f holding body.
func committedRepo(t *testing.T, dir, f, body string) {
	t.Helper()
	os.MkdirAll(dir, 0o755)
	e2etest.Git(t, dir, "init", "-q")
	e2etest.WriteFile(t, filepath.Join(dir, f), body)
	e2etest.Git(t, dir, "add", "-A")
	e2etest.Git(t, dir, "commit", "-qm", "init")
}

// mustNotExist fails for each path that is there (a link counts).
func mustNotExist(t *testing.T, what string, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s: %s is in the project after the run", what, p)
		}
	}
}

// In a repository with a nested repository and a linked worktree, the
// coder may commit, but cannot write the nested repository's config or
// hooks, repoint the linked worktree's commondir, rewrite an existing loose
// object, slip a forged object in under a name, or leave a new repository
// (git init + core.fsmonitor) or a .git file behind: each is refused or
// quarantined and named at the end.
func TestExecInPlaceNestedRepoWorktreeAndObjects(t *testing.T) {
	t.Parallel()
	for _, backend := range inPlaceBackends(t) {
		t.Run(backend, func(t *testing.T) {
			dir := e2etest.ScratchRepo(t)
			committedRepo(t, filepath.Join(dir, "vendor", "old"), "lib.txt", "lib\n")
			upstream := t.TempDir()
			committedRepo(t, upstream, "up.txt", "up\n")
			e2etest.Git(t, dir, "-c", "protocol.file.allow=always", "submodule", "add", "-q", upstream, "libsub")
			wt := filepath.Join(t.TempDir(), "wt")
			e2etest.Git(t, dir, "worktree", "add", "-q", "-b", "side", wt)
			blob := e2etest.Git(t, dir, "rev-parse", "HEAD:main.txt")
			loose := filepath.Join(dir, ".git", "objects", blob[:2], blob[2:])
			// The name the forged object takes: a blob the person may write later.
			future := strings.TrimSpace(runIn(t, dir, "sh", "-c", "printf 'all: safe\\n' | git hash-object --stdin"))
			before := map[string]string{}
			watched := []string{filepath.Join(dir, "vendor", "old", ".git"), filepath.Join(dir, ".git", "worktrees"),
				filepath.Join(dir, ".git", "hooks"), filepath.Join(dir, ".git", "modules")}
			for _, d := range watched {
				before[d] = treeDigest(t, d)
			}
			configBefore, _ := os.ReadFile(filepath.Join(dir, ".git", "config"))
			subPointer, _ := os.ReadFile(filepath.Join(dir, "libsub", ".git"))
			looseBefore, _ := os.ReadFile(loose)
			script := strings.Join([]string{
				"git init -q vendor/lib; git -C vendor/lib config core.fsmonitor 'touch PWNED-NESTED'",
				"echo '[core] fsmonitor = touch PWNED-OLD' >> vendor/old/.git/config",
				"echo 'touch PWNED-HOOK' > vendor/old/.git/hooks/pre-commit",
				"echo " + t.TempDir() + " > .git/worktrees/wt/commondir",
				"echo '[core] fsmonitor = touch PWNED-SUB' >> .git/modules/libsub/config",
				"echo 'gitdir: ../vendor/lib/.git' > libsub/.git",
				"mkdir -p sub/fake && echo 'gitdir: ../fake' > sub/.git",
				"chmod u+w " + loose + "; printf evil > " + loose,
				"n=$(printf 'all: evil\\n' | git hash-object -w --stdin)",
				"d=$GIT_OBJECT_DIRECTORY; mkdir -p $d/" + future[:2] + " && mv $d/$(echo $n | cut -c1-2)/$(echo $n | cut -c3-) $d/" + future[:2] + "/" + future[2:],
				"echo work > work.txt && git add work.txt && git -c user.name=T -c user.email=t@t commit -qm 'coder commit' && echo COMMITTED",
			}, "; ")
			res := e2etest.Sentinel(t, dir, nil, "exec", "--plain", "--sandbox", backend, "--", "sh", "-c", script)
			if res.Code != 0 {
				t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
			}
			for _, d := range watched {
				if after := treeDigest(t, d); after != before[d] {
					t.Errorf("%s changed in place:\nbefore:\n%s\nafter:\n%s", d, before[d], after)
				}
			}
			if after, _ := os.ReadFile(filepath.Join(dir, ".git", "config")); string(after) != string(configBefore) {
				t.Errorf(".git/config changed:\n%s", after)
			}
			if after, _ := os.ReadFile(filepath.Join(dir, "libsub", ".git")); string(after) != string(subPointer) {
				t.Errorf("the submodule's .git file was repointed: %q", after)
			}
			if after, _ := os.ReadFile(loose); string(after) != string(looseBefore) {
				t.Errorf("the loose object %s was rewritten in place", blob)
			}
			mustNotExist(t, "a repository or pointer the coder made", filepath.Join(dir, "vendor", "lib", ".git"), filepath.Join(dir, "sub", ".git"))
			if _, err := os.Lstat(filepath.Join(dir, ".git", "objects", future[:2], future[2:])); err == nil {
				t.Errorf("the forged object %s entered the person's object store", future)
			}
			if !strings.Contains(res.Stdout, "COMMITTED") {
				t.Fatalf("the coder could not commit in place:\n%s", res.Stdout)
			}
			// The commit's objects were moved in: the history reads whole.
			if out := runIn(t, dir, "git", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "cat-file", "-p", "HEAD:work.txt"); out != "work\n" {
				t.Errorf("the coder's commit is not readable from the host: %q", out)
			}
			for _, want := range []string{"quarantined", filepath.Join(dir, "vendor", "lib", ".git"), filepath.Join(dir, "sub", ".git")} {
				if !strings.Contains(res.Stderr, want) {
					t.Errorf("the end of the run does not name %s:\n%s", want, res.Stderr)
				}
			}
			if !strings.Contains(res.Stdout, "kept the coder's object") {
				t.Errorf("the forged object is not reported:\n%s", res.Stdout)
			}
		})
	}
}

// runIn runs a host command in dir (never one of the attacked
// repositories' own hooks: callers pass hardened flags) and returns its
// standard output.
func runIn(t *testing.T, dir string, argv ...string) string {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %v", argv, err)
	}
	return string(out)
}

// exec started in a folder that is no repository holds every repository
// under it read-only: a hook planted in one and core.fsmonitor in the
// other do not persist.
func TestExecInPlaceFolderOfRepositories(t *testing.T) {
	t.Parallel()
	for _, backend := range inPlaceBackends(t) {
		t.Run(backend, func(t *testing.T) {
			dir, _ := filepath.EvalSymlinks(t.TempDir())
			repoA, repoB := filepath.Join(dir, "repoA"), filepath.Join(dir, "repoB")
			committedRepo(t, repoA, "a.txt", "a\n")
			committedRepo(t, repoB, "b.txt", "b\n")
			before := map[string]string{repoA: treeDigest(t, filepath.Join(repoA, ".git")), repoB: treeDigest(t, filepath.Join(repoB, ".git"))}
			script := strings.Join([]string{
				"echo 'touch PWNED-A' > repoA/.git/hooks/pre-commit; chmod +x repoA/.git/hooks/pre-commit",
				"git -C repoB config core.fsmonitor 'touch PWNED-B'",
				"echo '[core] fsmonitor = touch PWNED-B' >> repoB/.git/config",
				"mv repoA/.git repoA/g2",
				"echo notes > notes.txt",
			}, "; ")
			res := e2etest.Sentinel(t, dir, nil, "exec", "--plain", "--sandbox", backend, "--", "sh", "-c", script)
			if res.Code != 0 {
				t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(b) != "notes\n" {
				t.Fatalf("the folder was not writable in place:\n%s", res.Stdout)
			}
			for repo, want := range before {
				if got := treeDigest(t, filepath.Join(repo, ".git")); got != want {
					t.Errorf("%s/.git changed in place:\nbefore:\n%s\nafter:\n%s", repo, want, got)
				}
			}
			mustNotExist(t, "a moved git dir", filepath.Join(repoA, "g2"))
		})
	}
}

// exec started inside a linked worktree may commit there, but cannot
// repoint its own commondir or gitdir, write the common dir's hooks or
// config, or touch another worktree's entry.
func TestExecInPlaceInsideALinkedWorktree(t *testing.T) {
	t.Parallel()
	for _, backend := range inPlaceBackends(t) {
		t.Run(backend, func(t *testing.T) {
			main := e2etest.ScratchRepo(t)
			base, _ := filepath.EvalSymlinks(t.TempDir())
			wt, other := filepath.Join(base, "wt"), filepath.Join(base, "other")
			e2etest.Git(t, main, "worktree", "add", "-q", "-b", "side", wt)
			e2etest.Git(t, main, "worktree", "add", "-q", "-b", "other", other)
			common := filepath.Join(main, ".git")
			own := filepath.Join(common, "worktrees", "wt")
			watched := []string{filepath.Join(common, "hooks"), filepath.Join(common, "worktrees", "other"), filepath.Join(common, "objects")}
			before := map[string]string{}
			for _, d := range watched {
				before[d] = treeDigest(t, d)
			}
			pointers := map[string]string{}
			for _, f := range []string{filepath.Join(own, "commondir"), filepath.Join(own, "gitdir"), filepath.Join(common, "config"), filepath.Join(wt, ".git")} {
				b, _ := os.ReadFile(f)
				pointers[f] = string(b)
			}
			evil := t.TempDir()
			script := strings.Join([]string{
				"echo w > w.txt && git add w.txt && git -c user.name=T -c user.email=t@t commit -qm wt-commit && echo COMMITTED",
				"echo " + evil + " > " + filepath.Join(own, "commondir"),
				"echo " + evil + "/.git > " + filepath.Join(own, "gitdir"),
				"echo 'gitdir: " + evil + "' > .git",
				"echo 'touch PWNED' > " + filepath.Join(common, "hooks", "post-checkout"),
				"echo '[core] fsmonitor = touch PWNED' >> " + filepath.Join(common, "config"),
				"echo x > " + filepath.Join(common, "worktrees", "other", "commondir"),
				"mkdir " + filepath.Join(common, "worktrees", "planted") + " && echo " + evil + " > " + filepath.Join(common, "worktrees", "planted", "commondir"),
				"true",
			}, "; ")
			res := e2etest.Sentinel(t, wt, nil, "exec", "--plain", "--sandbox", backend, "--", "sh", "-c", script)
			if res.Code != 0 {
				t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
			}
			if !strings.Contains(res.Stdout, "COMMITTED") {
				t.Errorf("the coder could not commit in its linked worktree:\n%s", res.Stdout)
			}
			for _, d := range watched[:2] {
				if got := treeDigest(t, d); got != before[d] {
					t.Errorf("%s changed in place:\nbefore:\n%s\nafter:\n%s", d, before[d], got)
				}
			}
			for f, want := range pointers {
				if got, _ := os.ReadFile(f); string(got) != want {
					t.Errorf("%s was repointed: %q", f, got)
				}
			}
			mustNotExist(t, "a planted worktree entry", filepath.Join(common, "worktrees", "planted"))
		})
	}
}

// The ssh agent reaches an in-place run only when the person's config says
// so ([sandbox] ssh_agent = true); TestExecInPlaceWritesOnlyItsProject
// checks it does not by default.
func TestExecInPlaceSSHAgentWhenConfigSaysSo(t *testing.T) {
	t.Parallel()
	python := "/usr/bin/python3"
	if _, err := os.Stat(python); err != nil {
		t.Skip("no /usr/bin/python3 (the test's socket client)")
	}
	dir := e2etest.ScratchRepo(t)
	cfg := t.TempDir()
	e2etest.WriteFile(t, filepath.Join(cfg, "sentinel", "config.toml"), "[sandbox]\nssh_agent = true\n")
	sock := fakeSSHAgent(t)
	script := python + " -c \"import socket,os; s=socket.socket(socket.AF_UNIX); s.connect(os.environ['SSH_AUTH_SOCK']); print(s.recv(16).decode())\""
	res := e2etest.Sentinel(t, dir, []string{"SSH_AUTH_SOCK=" + sock, "XDG_CONFIG_HOME=" + cfg}, "exec", "--plain", "--", "sh", "-c", script)
	if res.Code != 0 || !strings.Contains(res.Stdout, "AGENT-OK") {
		t.Fatalf("with ssh_agent = true the agent is not reachable inside: exit %d\n%s%s", res.Code, res.Stdout, res.Stderr)
	}
}

// A relative program runs under exec and under run --coder command, on
// both backends (bwrap once died with "Can't mkdir /usr").
func TestRelativeProgramRunsOnBothBackends(t *testing.T) {
	t.Parallel()
	for _, backend := range inPlaceBackends(t) {
		t.Run(backend, func(t *testing.T) {
			dir := e2etest.ScratchRepo(t)
			e2etest.WriteFile(t, filepath.Join(dir, "s.sh"), "#!/bin/sh\necho REL-OK > rel.txt\necho REL-OK\n")
			if err := os.Chmod(filepath.Join(dir, "s.sh"), 0o755); err != nil {
				t.Fatal(err)
			}
			e2etest.Git(t, dir, "add", "s.sh")
			e2etest.Git(t, dir, "commit", "-qm", "script")
			res := e2etest.Sentinel(t, dir, nil, "exec", "--plain", "--sandbox", backend, "--", "./s.sh")
			if res.Code != 0 || !strings.Contains(res.Stdout, "REL-OK") {
				t.Errorf("exec -- ./s.sh: exit %d\n%s%s", res.Code, res.Stdout, res.Stderr)
			}
			os.Remove(filepath.Join(dir, "rel.txt"))
			res = e2etest.Sentinel(t, dir, nil, "run", "--plain", "--sandbox", backend, "--coder", "command", "rel", "--", "./s.sh")
			if !strings.Contains(res.Stdout, "REL-OK") {
				t.Errorf("run --coder command -- ./s.sh: exit %d\n%s%s", res.Code, res.Stdout, res.Stderr)
			}
		})
	}
}
