package steer

import (
	"encoding/json"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// IsTestPath says whether p looks like a test file.
func IsTestPath(p string) bool {
	base := path.Base(p)
	switch {
	case strings.HasSuffix(base, "_test.go"),
		strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py"),
		strings.HasSuffix(base, "_test.py"),
		strings.HasSuffix(base, "_spec.rb"),
		strings.HasSuffix(base, "Test.java"), strings.HasSuffix(base, "Tests.java"),
		strings.HasSuffix(base, "Test.kt"), strings.HasSuffix(base, "Tests.cs"):
		return true
	}
	for _, mid := range []string{".test.", ".spec."} {
		if strings.Contains(base, mid) {
			return true
		}
	}
	p = "/" + strings.TrimPrefix(p, "./")
	return strings.Contains(p, "/__tests__/") || strings.Contains(p, "/tests/") || strings.Contains(p, "/test/") || strings.Contains(p, "/spec/")
}

// Edit is one change to a file's text: Old is what was replaced ("" for a
// whole-file write) and New what replaces it.
type Edit struct {
	Path     string
	Old, New string
	Whole    bool // New is the whole file (a write)
}

// EditsOf reads the edits from a write/edit request's raw tool input, in
// the shapes the agents send: Claude Code's Write {file_path, content},
// Edit {file_path, old_string, new_string} and MultiEdit {file_path,
// edits: [...]}; and generic {path, content} / {path, old, new}.
func EditsOf(reqPath string, input json.RawMessage) []Edit {
	var in struct {
		FilePath  string `json:"file_path"`
		Path      string `json:"path"`
		Content   string `json:"content"`
		OldString string `json:"old_string"`
		NewString string `json:"new_string"`
		Old       string `json:"old"`
		New       string `json:"new"`
		Edits     []struct {
			OldString string `json:"old_string"`
			NewString string `json:"new_string"`
		} `json:"edits"`
	}
	if len(input) == 0 || json.Unmarshal(input, &in) != nil {
		return nil
	}
	p := reqPath
	if p == "" {
		p = in.FilePath
	}
	if p == "" {
		p = in.Path
	}
	var out []Edit
	switch {
	case len(in.Edits) > 0:
		for _, e := range in.Edits {
			out = append(out, Edit{Path: p, Old: e.OldString, New: e.NewString})
		}
	case in.OldString != "" || in.NewString != "":
		out = append(out, Edit{Path: p, Old: in.OldString, New: in.NewString})
	case in.Old != "" || in.New != "":
		out = append(out, Edit{Path: p, Old: in.Old, New: in.New})
	case in.Content != "":
		out = append(out, Edit{Path: p, New: in.Content, Whole: true})
	}
	return out
}

// skipMarkers disable a test in the common frameworks.
var skipMarkers = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bt\.Skip(Now|f)?\(|\bb\.Skip(Now|f)?\(|@pytest\.mark\.(skip|xfail)|@unittest\.skip|\bpytest\.skip\(|\b(it|test|describe|context)\.(skip|todo)\(|\bx(it|describe|test)\(|#\[ignore\]|@Disabled\b|@Ignore\b|\b(it|test|describe)\.only\(|\bskip\s*\(\s*["']|@skip\b`)
})

// SkippedTest reports an edit that adds a skip marker to a test file.
func SkippedTest(e Edit) (string, bool) {
	if !IsTestPath(e.Path) {
		return "", false
	}
	added := len(skipMarkers().FindAllString(e.New, -1)) - len(skipMarkers().FindAllString(e.Old, -1))
	if added <= 0 {
		return "", false
	}
	m := skipMarkers().FindString(e.New)
	return "the change to " + e.Path + " adds `" + strings.TrimSuffix(m, "(") + "`, which skips a test", true
}

// testDecl finds the declaration of one test.
var testDecl = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\s*(func (Test|Benchmark|Fuzz)\w*|def test_?\w*|(it|test)\(\s*["'][^"']*["']|#\[test\]\s*fn \w+|fn test_\w+)`)
})

// RemovedTests reports an edit that removes test declarations.
func RemovedTests(e Edit) (string, bool) {
	if !IsTestPath(e.Path) || e.Whole {
		return "", false
	}
	old := testDecl().FindAllString(e.Old, -1)
	if len(old) == 0 {
		return "", false
	}
	kept := map[string]int{}
	for _, d := range testDecl().FindAllString(e.New, -1) {
		kept[strings.TrimSpace(d)]++
	}
	var gone []string
	for _, d := range old {
		d = strings.TrimSpace(d)
		if kept[d] > 0 {
			kept[d]--
			continue
		}
		gone = append(gone, "`"+d+"`")
	}
	if len(gone) == 0 {
		return "", false
	}
	return "the change to " + e.Path + " removes " + strings.Join(gone, ", "), true
}

// expectation matches a line that states what a test expects.
var expectation = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(want|wanted|got|expect\w*|assert\w*|should|golden|snapshot)\b|\.(toBe|toEqual|toMatch\w*|Equal|Equals|DeepEqual)\b|\b(Errorf|Fatalf)\(`)
})

// EditedExpectation reports an edit to a test file that changes only lines
// stating expectations (want/expect/assert …), leaving the code under test
// alone — the shape of "make the test agree with the bug".
func EditedExpectation(e Edit) (string, bool) {
	if !IsTestPath(e.Path) || e.Whole || e.Old == "" {
		return "", false
	}
	removed, added := lineDiff(e.Old, e.New)
	if len(removed) == 0 || len(added) == 0 {
		return "", false
	}
	for _, l := range removed {
		if !expectation().MatchString(l) {
			return "", false
		}
	}
	return "the change to " + e.Path + " rewrites what a test expects: `" + clip(removed[0], 80) + "` → `" + clip(added[0], 80) + "`", true
}

// lineDiff is the lines only in a and the lines only in b (trimmed, as sets).
func lineDiff(a, b string) (onlyA, onlyB []string) {
	count := func(s string) map[string]int {
		m := map[string]int{}
		for _, l := range strings.Split(s, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				m[l]++
			}
		}
		return m
	}
	ca, cb := count(a), count(b)
	for _, l := range strings.Split(a, "\n") {
		if l = strings.TrimSpace(l); l != "" && ca[l] > cb[l] {
			onlyA = append(onlyA, l)
			ca[l]--
		}
	}
	ca = count(a)
	for _, l := range strings.Split(b, "\n") {
		if l = strings.TrimSpace(l); l != "" && cb[l] > ca[l] {
			onlyB = append(onlyB, l)
			cb[l]--
		}
	}
	return onlyA, onlyB
}

func clip(s string, n int) string { return textsafe.ClipLine(s, n) }
