package steer

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestIsTestPath(t *testing.T) {
	for p, want := range map[string]bool{
		"pkg/foo_test.go": true, "tests/test_api.py": true, "app/api_test.py": true, "src/a.test.ts": true,
		"src/a.spec.js": true, "src/__tests__/a.js": true, "spec/user_spec.rb": true, "src/FooTest.java": true,
		"pkg/foo.go": false, "src/contest.py": false, "latest/main.go": false, "README.md": false,
	} {
		if got := IsTestPath(p); got != want {
			t.Errorf("IsTestPath(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestEditsOf(t *testing.T) {
	cases := []struct {
		name  string
		input string
		want  []Edit
	}{
		{"claude edit", `{"file_path":"/ws/a_test.go","old_string":"a","new_string":"b"}`, []Edit{{Path: "/ws/a_test.go", Old: "a", New: "b"}}},
		{"claude write", `{"file_path":"/ws/a_test.go","content":"package a"}`, []Edit{{Path: "/ws/a_test.go", New: "package a", Whole: true}}},
		{"multiedit", `{"file_path":"/ws/x.py","edits":[{"old_string":"1","new_string":"2"},{"old_string":"3","new_string":"4"}]}`,
			[]Edit{{Path: "/ws/x.py", Old: "1", New: "2"}, {Path: "/ws/x.py", Old: "3", New: "4"}}},
		{"garbage", `not json`, nil},
	}
	for _, c := range cases {
		got := EditsOf("", json.RawMessage(c.input))
		if len(got) != len(c.want) {
			t.Errorf("%s: %d edits, want %d", c.name, len(got), len(c.want))
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: edit %d = %+v, want %+v", c.name, i, got[i], c.want[i])
			}
		}
	}
}

func TestSkippedTest(t *testing.T) {
	cases := []struct {
		name string
		e    Edit
		want string // "" means no finding
	}{
		{"go t.Skip added", Edit{Path: "a_test.go", Old: "func TestA(t *testing.T) {\n", New: "func TestA(t *testing.T) {\n\tt.Skip(\"flaky\")\n"}, "t.Skip"},
		{"pytest mark", Edit{Path: "tests/test_a.py", Old: "def test_a():", New: "@pytest.mark.skip\ndef test_a():"}, "@pytest.mark.skip"},
		{"jest it.skip", Edit{Path: "a.test.js", Old: "it('works', () => {", New: "it.skip('works', () => {"}, "it.skip"},
		{"jest xit", Edit{Path: "a.spec.ts", Old: "it('works'", New: "xit('works'"}, "xit"},
		{"jest only", Edit{Path: "a.spec.ts", Old: "it('works'", New: "it.only('works'"}, "it.only"},
		{"rust ignore", Edit{Path: "tests/it.rs", Old: "#[test]\nfn a() {}", New: "#[test]\n#[ignore]\nfn a() {}"}, "#[ignore]"},
		{"already skipped", Edit{Path: "a_test.go", Old: "t.Skip(\"x\")\nfoo()", New: "t.Skip(\"x\")\nbar()"}, ""},
		{"skip removed", Edit{Path: "a_test.go", Old: "t.Skip(\"x\")", New: ""}, ""},
		{"not a test file", Edit{Path: "main.go", Old: "", New: "t.Skip()"}, ""},
		{"write of a test file with a skip", Edit{Path: "a_test.go", New: "func TestA(t *testing.T) { t.SkipNow() }", Whole: true}, "t.SkipNow"},
	}
	for _, c := range cases {
		d, ok := SkippedTest(c.e)
		if ok != (c.want != "") || (ok && !strings.Contains(d, c.want)) {
			t.Errorf("%s: SkippedTest = %q, %v; want a finding naming %q", c.name, d, ok, c.want)
		}
	}
}

func TestRemovedTests(t *testing.T) {
	cases := []struct {
		name string
		e    Edit
		want string
	}{
		{"go test func removed", Edit{Path: "a_test.go", Old: "func TestA(t *testing.T) {\n\tcheck()\n}\n\nfunc TestB(t *testing.T) {}", New: "func TestB(t *testing.T) {}"}, "func TestA"},
		{"python test removed", Edit{Path: "tests/test_x.py", Old: "def test_login():\n    assert ok\n", New: ""}, "def test_login"},
		{"renamed body only", Edit{Path: "a_test.go", Old: "func TestA(t *testing.T) {\n\ta()\n}", New: "func TestA(t *testing.T) {\n\tb()\n}"}, ""},
		{"not a test file", Edit{Path: "a.go", Old: "func TestA() {}", New: ""}, ""},
	}
	for _, c := range cases {
		d, ok := RemovedTests(c.e)
		if ok != (c.want != "") || (ok && !strings.Contains(d, c.want)) {
			t.Errorf("%s: RemovedTests = %q, %v; want %q", c.name, d, ok, c.want)
		}
	}
}

func TestEditedExpectation(t *testing.T) {
	cases := []struct {
		name string
		e    Edit
		want bool
	}{
		{"go want changed", Edit{Path: "a_test.go", Old: `{in: 2, want: 4},`, New: `{in: 2, want: 5},`}, true},
		{"assert changed", Edit{Path: "tests/test_a.py", Old: "    assert total(2) == 4", New: "    assert total(2) == 5"}, true},
		{"jest expectation", Edit{Path: "a.test.ts", Old: "expect(sum(1, 2)).toBe(3);", New: "expect(sum(1, 2)).toBe(4);"}, true},
		{"go Errorf condition", Edit{Path: "a_test.go", Old: "if got != 4 {\n\tt.Errorf(\"got %d\", got)", New: "if got != 5 {\n\tt.Errorf(\"got %d\", got)"}, true},
		{"a new case added", Edit{Path: "a_test.go", Old: "{in: 2, want: 4},", New: "{in: 2, want: 4},\n{in: 3, want: 6},"}, false},
		{"setup changed", Edit{Path: "a_test.go", Old: "srv := start()\n", New: "srv := startTLS()\n"}, false},
		{"code under test", Edit{Path: "calc.go", Old: "want := 4", New: "want := 5"}, false},
	}
	for _, c := range cases {
		d, ok := EditedExpectation(c.e)
		if ok != c.want {
			t.Errorf("%s: EditedExpectation = %q, %v; want %v", c.name, d, ok, c.want)
		}
	}
}
