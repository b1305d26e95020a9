package patch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every kind of file the issue found unflagged is flagged on the review
// screen, in whatever case the coder spells it; the list is the policy's.
func TestReviewFlagsEveryRunLaterFileInAnyCase(t *testing.T) {
	r := newRepo(t)
	r.write("main.go", "package main\n", 0o644)
	r.commitAll()
	flagged := []string{
		"MAKEFILE", "Package.JSON", ".GitHub/Actions/setup/action.yml", ".github/workflows/ci.yml",
		"Claude.md", "AGENTS.md", "gemini.MD", ".CursorRules", ".Cursor/mcp.json",
		".Cargo/Config.toml", "BUILD.RS", "tests/ConfTest.py", "SETUP.py", "SiteCustomize.py",
		"lib/evil.PTH", "JUSTFILE", "taskfile.YML", "DOCKERFILE", ".Pre-Commit-Config.yaml",
		"Lefthook-Local.yml", ".EXRC", ".NVIM.lua", ".ZED/settings.json", ".VSCODE/tasks.json",
		".ENVRC", ".Claude/settings.json",
	}
	for _, p := range flagged {
		r.write(p, "x\n", 0o644)
	}
	r.write("src/util.go", "package src\n", 0o644)
	files, err := Parse(r.diff())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]File{}
	for _, f := range files {
		got[f.Path] = f
	}
	for _, p := range flagged {
		if f, ok := got[p]; !ok || !f.Flagged || f.FlagReason == "" {
			t.Errorf("%s is not flagged (%q)", p, f.FlagReason)
		}
	}
	if f := got["src/util.go"]; f.Flagged {
		t.Errorf("an ordinary file is flagged: %s", f.FlagReason)
	}
}

// A patch that adds a submodule (a gitlink), a symlink, or retargets one is
// flagged: the review must show what git will check out or what a link
// will make tools open.
func TestReviewFlagsSubmodulesAndSymlinks(t *testing.T) {
	r := newRepo(t)
	r.write("main.go", "package main\n", 0o644)
	if err := os.Symlink("main.go", filepath.Join(r.dir, "old-link")); err != nil {
		t.Fatal(err)
	}
	r.commitAll()
	head := strings.TrimSpace(r.git("rev-parse", "HEAD"))
	r.git("update-index", "--add", "--cacheinfo", "160000,"+head+",vendor/lib")
	if err := os.MkdirAll(filepath.Join(r.dir, "vendor/lib"), 0o755); err != nil {
		t.Fatal(err) // an uninitialised submodule is an empty directory
	}
	if err := os.Symlink("/home/someone/.ssh", filepath.Join(r.dir, "docs")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(r.dir, "old-link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../elsewhere", filepath.Join(r.dir, "old-link")); err != nil {
		t.Fatal(err)
	}
	files, err := Parse(r.diff())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"vendor/lib": "submodule",
		"docs":       "new symlink",
		"old-link":   "symlink changed",
	}
	for _, f := range files {
		w, ok := want[f.Path]
		if !ok {
			continue
		}
		delete(want, f.Path)
		if !f.Flagged || !strings.Contains(f.FlagReason, w) {
			t.Errorf("%s (mode %s→%s): flagged %v %q, want %q", f.Path, f.OldMode, f.NewMode, f.Flagged, f.FlagReason, w)
		}
	}
	for p := range want {
		t.Errorf("%s is missing from the parsed patch", p)
	}
}
