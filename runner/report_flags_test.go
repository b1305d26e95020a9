package runner

import (
	"strings"
	"testing"
)

// The final report's risks name every changed file the review flags, with
// the same reason: mixed-case names from the one list, and submodules and
// symlinks that only the patch's modes show.
func TestFinalReportRisksListEveryFlaggedFile(t *testing.T) {
	t.Parallel()
	diff := "diff --git a/vendor/lib b/vendor/lib\nnew file mode 160000\nindex 0000000..1234567\n--- /dev/null\n+++ b/vendor/lib\n@@ -0,0 +1 @@\n+Subproject commit 1234567890123456789012345678901234567890\n" +
		"diff --git a/docs b/docs\nnew file mode 120000\nindex 0000000..89abcde\n--- /dev/null\n+++ b/docs\n@@ -0,0 +1 @@\n+/home/someone/.ssh\n\\ No newline at end of file\n"
	m := &Meta{ID: "r1", Task: "t", Coder: "demo", Status: StatusLanded,
		Files: []string{"main.go", "MAKEFILE", ".VSCODE/tasks.json", "Claude.md", "tests/ConfTest.py", "vendor/lib", "docs"}}
	final := renderFinalReport(m, nil, FlaggedFiles(m.Files, []byte(diff)))
	for _, want := range []string{
		"`MAKEFILE` runs code later: make runs it",
		"`.VSCODE/tasks.json` runs code later: editor tasks",
		"`Claude.md` runs code later: agent instructions",
		"`tests/ConfTest.py` runs code later: pytest",
		"`vendor/lib` runs code later: submodule",
		"`docs` runs code later: new symlink",
	} {
		if !strings.Contains(final, want) {
			t.Errorf("FINAL_REPORT.md lacks %q:\n%s", want, final)
		}
	}
	if strings.Contains(final, "`main.go` runs code later") || strings.Count(final, "`vendor/lib` runs code later") != 1 {
		t.Errorf("wrong flags:\n%s", final)
	}
	// An unreadable patch loses only what its modes would show.
	if bad := FlaggedFiles(m.Files, []byte("not a diff\n")); len(bad) != 4 {
		t.Errorf("with an unreadable patch: %v, want the 4 listed paths", bad)
	}
}
