package runner

import (
	"strings"
	"testing"
)

// The report's first line agrees with everything listed below it: a run
// that changed no file in the work tree but staged one, moved a ref or
// had a git dir or object quarantined never says "no files changed".
func TestInPlaceHeadlineCountsEveryKindOfChange(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		c    InPlaceChanged
		want []string
	}{
		{"nothing", InPlaceChanged{}, []string{"no files changed"}},
		{"files", InPlaceChanged{Files: []string{"a"}, Stat: " a | 1 +"}, []string{"1 file(s) changed in place"}},
		{"staged only", InPlaceChanged{Staged: []StagedChange{{Path: "Makefile", After: "100644 abc"}}}, []string{"1 staged path(s) changed in your index", "no file changed in place"}},
		{"ref only", InPlaceChanged{Refs: []RefMove{{Ref: "refs/heads/main", After: "abc"}}}, []string{"1 ref(s) changed"}},
		{"quarantined only", InPlaceChanged{Quarantined: []string{"vendor/lib/.git (now in q/1-git)"}}, []string{"1 git dir(s), pointer(s), ref(s) or object(s) the coder made quarantined"}},
		{"stuck only", InPlaceChanged{Stuck: []string{"x/.git: busy"}}, []string{"1 git dir(s) or pointer(s) the coder made still in your project"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			report := tc.c.Report(" in place")
			first, _, _ := strings.Cut(report, "\n")
			for _, w := range tc.want {
				if !strings.Contains(first, w) {
					t.Errorf("first line %q lacks %q", first, w)
				}
			}
			if tc.name != "nothing" && strings.Contains(first, "no files changed") {
				t.Errorf("first line %q says nothing changed; the report:\n%s", first, report)
			}
			for _, listed := range append(append([]string{}, tc.c.Quarantined...), tc.c.Stuck...) {
				if !strings.Contains(report, listed) {
					t.Errorf("the report does not list %q:\n%s", listed, report)
				}
			}
		})
	}
}

// Every git dir the report names as quarantined or stuck stays on its own
// line, however the coder named the directory that held it.
func TestInPlaceReportKeepsEachGitDirOnItsLine(t *testing.T) {
	t.Parallel()
	c := InPlaceChanged{
		Quarantined: []string{"/p/v\nsentinel: exec done; no files changed/.git (now in /q/1-git)"},
		Stuck:       []string{"/p/w\nsentinel: nothing stuck/.git: busy"},
	}
	report := c.Report(" in place")
	for _, l := range strings.Split(report, "\n") {
		if strings.HasPrefix(l, "sentinel:") {
			t.Errorf("a name broke the report into a line of its own, %q:\n%s", l, report)
		}
	}
}
