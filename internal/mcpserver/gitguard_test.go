//go:build unix

package mcpserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func git(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// A git dir is the person's by what it is, not by how it is spelled: the
// repository's .git moved away (`move app/.git app/g2`) or a copy of it
// under another name is still one, so is a nested repository's, a linked
// worktree's admin dir, a `.git` file in any case, and a directory that a
// new HEAD would complete. Nothing in or of them is written, moved or
// deleted; a directory holding one is not moved or deleted whole. Reading
// them, and the rest of the tree, works.
func TestGitDirsAreKnownByWhatTheyAre(t *testing.T) {
	t.Parallel()
	eachLayer(t, testGitDirsAreKnownByWhatTheyAre)
}

func testGitDirsAreKnownByWhatTheyAre(t *testing.T) {
	f := newFixture(t)
	git(t, "init", "-q", f.rw)
	git(t, "init", "-q", filepath.Join(f.rw, "vendor", "lib"))
	// A copy of the git dir under another name, as a command could make.
	git(t, "init", "-q", "--bare", filepath.Join(f.rw, "g2"))
	// A linked worktree's admin dir, moved out of .git: HEAD, commondir, gitdir.
	write(t, filepath.Join(f.rw, "adm", "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(f.rw, "adm", "commondir"), "../..\n")
	write(t, filepath.Join(f.rw, "adm", "gitdir"), f.rw+"/wt/.git\n")
	// Half a git dir: objects and refs, no HEAD yet.
	for _, d := range []string{"half/objects", "half/refs"} {
		if err := os.MkdirAll(filepath.Join(f.rw, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cs, _ := session(t, mustConfig(t, f.config("")), Options{})
	hook := "#!/bin/sh\ntouch /tmp/pwned\n"
	refused := []struct {
		tool string
		args map[string]any
	}{
		{"move", map[string]any{"from": f.rw + "/.git", "to": f.rw + "/g3"}},
		{"edit", map[string]any{"path": f.rw + "/.git/commondir", "content": "/tmp/evil\n"}},
		{"edit", map[string]any{"path": f.rw + "/.git/config.worktree", "content": "[core]\nfsmonitor = evil\n"}},
		{"edit", map[string]any{"path": f.rw + "/.git/info/attributes", "content": "* filter=evil\n"}},
		{"edit", map[string]any{"path": f.rw + "/g2/config", "content": "[core]\nfsmonitor = evil\n"}},
		{"edit", map[string]any{"path": f.rw + "/g2/hooks/pre-commit", "content": hook}},
		{"chmod", map[string]any{"path": f.rw + "/g2/hooks", "mode": "777"}},
		{"move", map[string]any{"from": f.rw + "/g2", "to": f.rw + "/sub/.git"}},
		{"move", map[string]any{"from": f.rw + "/g2", "to": f.rw + "/g4"}},
		{"delete", map[string]any{"path": f.rw + "/g2", "recursive": true}},
		{"edit", map[string]any{"path": f.rw + "/vendor/lib/.git/config", "content": "[core]\nfsmonitor = evil\n"}},
		{"edit", map[string]any{"path": f.rw + "/vendor/lib/.git/hooks/post-checkout", "content": hook}},
		{"move", map[string]any{"from": f.rw + "/vendor", "to": f.rw + "/v2"}},
		{"delete", map[string]any{"path": f.rw + "/vendor", "recursive": true}},
		{"delete", map[string]any{"path": f.rw + "/vendor/lib/.git/HEAD"}},
		{"edit", map[string]any{"path": f.rw + "/adm/commondir", "content": "/tmp/evil\n"}},
		{"edit", map[string]any{"path": f.rw + "/adm/gitdir", "content": "/tmp/evil\n"}},
		{"edit", map[string]any{"path": f.rw + "/half/HEAD", "content": "ref: refs/heads/main\n"}},
		{"copy", map[string]any{"from": f.rw + "/notes.txt", "to": f.rw + "/half/HEAD"}},
		{"move", map[string]any{"from": f.rw + "/notes.txt", "to": f.rw + "/half/HEAD"}},
	}
	for _, name := range []string{".git", ".GIT", ".Git"} {
		refused = append(refused, struct {
			tool string
			args map[string]any
		}{"edit", map[string]any{"path": f.rw + "/pkg/" + name, "content": "gitdir: /tmp/evil\n"}})
	}
	os.MkdirAll(filepath.Join(f.rw, "pkg"), 0o755)
	for _, c := range refused {
		mustRefuse(t, cs, c.tool, c.args, ClassReadOnlyPath)
	}
	mustAllow(t, cs, "read", map[string]any{"path": f.rw + "/g2/config"})
	mustAllow(t, cs, "read", map[string]any{"path": f.rw + "/vendor/lib/.git/HEAD"})
	mustAllow(t, cs, "edit", map[string]any{"path": f.rw + "/vendor/lib/README", "content": "fine\n"})
	mustAllow(t, cs, "edit", map[string]any{"path": f.rw + "/half/README", "content": "fine\n"})
	mustAllow(t, cs, "move", map[string]any{"from": f.rw + "/half/README", "to": f.rw + "/README"})
	for _, p := range []string{".git", "g2/config", "g2/hooks", "vendor/lib/.git/HEAD", "adm/commondir"} {
		if _, err := os.Stat(filepath.Join(f.rw, p)); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	for _, p := range []string{"g3", "g4", "v2", "half/HEAD", "g2/hooks/pre-commit", "pkg/.git", "pkg/.GIT"} {
		if _, err := os.Lstat(filepath.Join(f.rw, p)); err == nil {
			t.Errorf("%s was made", p)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(f.rw, "adm", "commondir")); string(b) != "../..\n" {
		t.Errorf("adm/commondir = %q", b)
	}
}
