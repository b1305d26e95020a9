package placeflags

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// A changed executable that was there before is flagged with what runs
// it when the person's Makefile, package.json, justfile or .envrc names
// it literally as a command (or an interpreter's operand); one nothing
// names, a build output a recipe writes, a new one and a plain file are
// not (ipatk12, "Not fixed, for a decision").
func TestScriptsTheRunnerFilesNameAreFlagged(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"Makefile":                    "CC = cc\ntest: build\n\t@./scripts/test.sh -v\nbuild:\n\tcc -o build/app src/main.c\n\tFOO=1 bash -e scripts/gen.sh --x\n",
		"package.json":                `{"scripts": {"lint": "node tools/lint.js && ./scripts/lint.sh", "n": 3}}`,
		"justfile":                    "deploy target:\n    ./scripts/deploy.sh {{target}}\n",
		".envrc":                      "PATH_add bin\n./scripts/setup.sh\n",
		"node_modules/x/package.json": `{"scripts": {"postinstall": "./scripts/other.sh"}}`,
	}
	var before checkpoint.Manifest
	for rel, body := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		before.Entries = append(before.Entries, checkpoint.Entry{Path: rel, Kind: checkpoint.KindFile, Mode: 0o644})
	}
	r := Read(root, &before, "", "")
	exe := func(h string) *checkpoint.Entry {
		return &checkpoint.Entry{Kind: checkpoint.KindFile, Mode: 0o755, Hash: h}
	}
	changed := func(p string) checkpoint.Change {
		return checkpoint.Change{Path: p, What: checkpoint.Modified, Before: exe("a"), After: exe("b")}
	}
	changes := []checkpoint.Change{
		changed("scripts/test.sh"), changed("scripts/gen.sh"), changed("scripts/lint.sh"), changed("scripts/deploy.sh"),
		changed("scripts/setup.sh"), changed("scripts/other.sh"), changed("build/app"), changed("src/main.c"),
		{Path: "scripts/new.sh", What: checkpoint.Added, After: exe("b")},
		{Path: "tools/lint.js", What: checkpoint.Modified, Before: &checkpoint.Entry{Kind: checkpoint.KindFile, Mode: 0o644, Hash: "a"}, After: &checkpoint.Entry{Kind: checkpoint.KindFile, Mode: 0o644, Hash: "b"}},
		{Path: "scripts/test.sh.same", What: checkpoint.ModeOnly, Before: exe("a"), After: exe("a")},
	}
	got := map[string]string{}
	for _, f := range r.Scripts(changes) {
		got[f.Path] = f.Reason
	}
	for p, want := range map[string]string{
		"scripts/test.sh":   "your Makefile runs it (target test)",
		"scripts/gen.sh":    "your Makefile runs it (target build)",
		"scripts/lint.sh":   "your package.json runs it (script lint)",
		"scripts/deploy.sh": "your justfile runs it (recipe deploy)",
		"scripts/setup.sh":  "your .envrc runs it",
	} {
		if !strings.HasPrefix(got[p], want) {
			t.Errorf("%s: flagged %q, want %q", p, got[p], want)
		}
		delete(got, p)
	}
	if len(got) > 0 {
		t.Errorf("flagged what nothing runs: %v", got)
	}
}
