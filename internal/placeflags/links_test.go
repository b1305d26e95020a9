//go:build unix

package placeflags

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// The person's git hooks that are links into the place or scripts naming
// one of its files, a tracked .vscode that is a link to a folder of the
// place and an .envrc that is a link to a file: a coder's edit of what
// they reach runs on the person's machine at the next commit, push,
// folder open or cd, and was reported as a plain change (h/ipatk16). A
// file no hook or link reaches, a hook's sample and a link out of the
// place are not flagged.
func TestWhatALinkOrAHookReachesIsFlagged(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var before checkpoint.Manifest
	file := func(rel, body string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(body), 0o755))
		before.Entries = append(before.Entries, checkpoint.Entry{Path: rel, Kind: checkpoint.KindFile, Mode: 0o755})
	}
	link := func(rel, target string, inManifest bool) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.Symlink(target, p))
		if inManifest {
			before.Entries = append(before.Entries, checkpoint.Entry{Path: rel, Kind: checkpoint.KindSymlink, Target: target})
		}
	}
	file("scripts/pre-commit.sh", "#!/bin/sh\n")
	file("scripts/pre-push.sh", "#!/bin/sh\n")
	file("scripts/lint.sh", "#!/bin/sh\n")
	file("scripts/other.sh", "#!/bin/sh\n")
	file("tools/fmt.py", "print(1)\n")
	file("config/editor/settings.json", "{}\n")
	file("env/dev.sh", "export A=1\n")
	file(".git/hooks/pre-push", "#!/bin/sh\n# checks\nexec scripts/pre-push.sh \"$@\"\n")
	file(".git/hooks/pre-rebase.sample", "#!/bin/sh\n./scripts/other.sh\n")
	file(".husky/pre-commit", "sh scripts/lint.sh\n")
	file(".pre-commit-config.yaml", "repos:\n- repo: local\n  hooks:\n  - id: fmt\n    entry: python3 tools/fmt.py\n    language: system\n  - id: chk\n    entry: 'scripts/check.sh --all'\n    language: script\n")
	link(".git/hooks/pre-commit", "../../scripts/pre-commit.sh", false) // the git dir is not in the record
	link(".vscode", "config/editor", true)
	link(".envrc", "env/dev.sh", true)
	link("docs/link", "../scripts/other.sh", true) // not a run-later name
	link(".idea", "/etc", true)                    // out of the place
	r := Read(root, &before, "", "")
	f := func(h string) *checkpoint.Entry {
		return &checkpoint.Entry{Kind: checkpoint.KindFile, Mode: 0o755, Hash: h}
	}
	var changes []checkpoint.Change
	for _, p := range []string{"scripts/pre-commit.sh", "scripts/pre-push.sh", "scripts/lint.sh", "config/editor/tasks.json", "env/dev.sh", "scripts/other.sh", "src/a.c", "tools/fmt.py", "scripts/check.sh"} {
		changes = append(changes, checkpoint.Change{Path: p, What: checkpoint.Modified, Before: f("a"), After: f("b")})
	}
	got := map[string]string{}
	for _, fl := range r.Linked(changes) {
		got[fl.Path] = fl.Reason
	}
	for p, want := range map[string]string{
		"scripts/pre-commit.sh":    "your git hook .git/hooks/pre-commit is a link to it",
		"scripts/pre-push.sh":      "your git hook .git/hooks/pre-push runs it (on pre-push)",
		"scripts/lint.sh":          "your git hook .husky/pre-commit runs it",
		"config/editor/tasks.json": "your .vscode is a link to it (editor tasks",
		"env/dev.sh":               "your .envrc is a link to it (direnv runs it on cd)",
		"tools/fmt.py":             "your .pre-commit-config.yaml runs it (pre-commit, on commit)",
		"scripts/check.sh":         "your .pre-commit-config.yaml runs it (pre-commit, on commit)",
	} {
		if !strings.HasPrefix(got[p], want) {
			t.Errorf("%s: flagged %q, want %q…", p, got[p], want)
		}
	}
	for _, p := range []string{"scripts/other.sh", "src/a.c"} {
		if why, ok := got[p]; ok {
			t.Errorf("%s flagged (%q); no hook or run-later link reaches it", p, why)
		}
	}
	if len(got) != 7 {
		t.Errorf("flagged %d files, want 7: %v", len(got), slices.Sorted(maps.Keys(got)))
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
