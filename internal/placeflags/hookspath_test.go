//go:build unix

package placeflags

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// core.hooksPath, wherever and however it is set, names the folder git
// runs hooks from at the person's next commit instead of .git/hooks; its
// hooks were not read (the folders were a fixed list), so a coder's edit
// to a script such a hook runs, or links to, was a plain change. With real
// git: relative in .git/config, absolute outside the place in the
// person's global config, through include and includeIf, and in a
// worktree's config.worktree. Sets HOME: not parallel.
func TestWhatACoreHooksPathHookReachesIsFlagged(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	outside, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	home := filepath.Join(outside, "home")
	must(t, os.MkdirAll(home, 0o755))
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	put := func(p, body string) {
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(body), 0o755))
	}
	git("init", "-q")
	var before checkpoint.Manifest
	before.Entries = append(before.Entries, checkpoint.Entry{Path: ".git", Kind: checkpoint.KindDir})
	for _, s := range []string{"rel", "global", "link", "inc", "incif", "wt"} {
		put(filepath.Join(root, "scripts", s+".sh"), "#!/bin/sh\n")
	}
	// Relative, in the repository's own config: from the work tree.
	git("config", "core.hooksPath", "tools/hk")
	put(filepath.Join(root, "tools/hk/pre-commit"), "#!/bin/sh\nexec scripts/rel.sh\n")
	// Absolute, outside the place, in the person's global config; one
	// of its hooks is a link into the place.
	put(filepath.Join(home, ".gitconfig"), "[core]\n\thooksPath = "+filepath.Join(outside, "ghooks")+"\n")
	put(filepath.Join(outside, "ghooks/pre-push"), "#!/bin/sh\nexec scripts/global.sh\n")
	must(t, os.Symlink(filepath.Join(root, "scripts/link.sh"), filepath.Join(outside, "ghooks/post-checkout")))
	// Through an include and an includeIf of the repository's config.
	put(filepath.Join(outside, "inc.gitconfig"), "[core]\n\thooksPath = "+filepath.Join(outside, "inchooks")+"\n")
	put(filepath.Join(outside, "inchooks/commit-msg"), "#!/bin/sh\nexec scripts/inc.sh\n")
	git("config", "include.path", filepath.Join(outside, "inc.gitconfig"))
	put(filepath.Join(outside, "incif.gitconfig"), "[core]\n\thooksPath = "+filepath.Join(outside, "ifhooks")+"\n")
	put(filepath.Join(outside, "ifhooks/pre-merge-commit"), "#!/bin/sh\nexec scripts/incif.sh\n")
	git("config", "includeIf.gitdir:"+root+"/.git.path", filepath.Join(outside, "incif.gitconfig"))
	// In config.worktree (extensions.worktreeConfig).
	git("config", "extensions.worktreeConfig", "true")
	git("config", "--worktree", "core.hooksPath", filepath.Join(outside, "wthooks"))
	put(filepath.Join(outside, "wthooks/prepare-commit-msg"), "#!/bin/sh\nexec scripts/wt.sh\n")

	// A nested repository's own core.hooksPath: its .git as the record
	// has it (KindGit, never a KindDir).
	git("init", "-q", "sub")
	git("-C", "sub", "config", "core.hooksPath", filepath.Join(outside, "nhooks"))
	put(filepath.Join(outside, "nhooks/pre-commit"), "#!/bin/sh\nexec scripts/nested.sh\n")
	before.Entries = append(before.Entries, checkpoint.Entry{Path: "sub/.git", Kind: checkpoint.KindGit})

	r := Read(root, &before, "", "")
	f := func(h string) *checkpoint.Entry {
		return &checkpoint.Entry{Kind: checkpoint.KindFile, Mode: 0o755, Hash: h}
	}
	var changes []checkpoint.Change
	for _, s := range []string{"rel", "global", "link", "inc", "incif", "wt", "nested"} {
		changes = append(changes, checkpoint.Change{Path: "scripts/" + s + ".sh", What: checkpoint.Modified, Before: f("a"), After: f("b")})
	}
	got := map[string]string{}
	for _, fl := range r.Linked(changes) {
		got[fl.Path] = fl.Reason
	}
	for p, want := range map[string]string{
		"scripts/rel.sh":    "your git hook tools/hk/pre-commit runs it (on pre-commit)",
		"scripts/global.sh": "your git hook " + filepath.Join(outside, "ghooks/pre-push") + " runs it",
		"scripts/link.sh":   "your git hook " + filepath.Join(outside, "ghooks/post-checkout") + " is a link to it",
		"scripts/inc.sh":    "your git hook " + filepath.Join(outside, "inchooks/commit-msg") + " runs it",
		"scripts/incif.sh":  "your git hook " + filepath.Join(outside, "ifhooks/pre-merge-commit") + " runs it",
		"scripts/wt.sh":     "your git hook " + filepath.Join(outside, "wthooks/prepare-commit-msg") + " runs it",
		"scripts/nested.sh": "your git hook " + filepath.Join(outside, "nhooks/pre-commit") + " runs it",
	} {
		if !strings.HasPrefix(got[p], want) {
			t.Errorf("%s: flagged %q, want %q…", p, got[p], want)
		}
	}
}
