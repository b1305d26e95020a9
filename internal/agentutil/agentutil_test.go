package agentutil

import (
	"encoding/json"
	"testing"
)

func TestCompareVersions(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"2.1.332 (Claude Code)", "2.1.0", 1},
		{"codex-cli 0.171.0", "0.171.0", 0},
		{"1.9.9", "1.10.0", -1},
		{"garbage", "0.0.1", -1},
	}
	for _, c := range cases {
		if got := CompareVersions(c.a, c.b); got != c.want {
			t.Errorf("CompareVersions(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestFindVersion(t *testing.T) {
	for in, want := range map[string]string{
		"2.1.332 (Claude Code)": "2.1.332", "gemini 0.41.2\n": "0.41.2", "v1.2": "", "garbage": "", "10.20.30.40": "10.20.30",
	} {
		if got := FindVersion(in); got != want {
			t.Errorf("FindVersion(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestURLHostPort(t *testing.T) {
	cases := map[string]string{
		"https://API.example.com/v1": "api.example.com:443",
		"http://127.0.0.1:8080/x":    "127.0.0.1:8080",
		"http://gateway.local/v1":    "gateway.local:80",
		"https://[::1]:9000":         "[::1]:9000",
		"not a url":                  "",
		"":                           "",
	}
	for in, want := range cases {
		got, ok := URLHostPort(in)
		if got != want || ok != (want != "") {
			t.Errorf("URLHostPort(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func TestStripJSONC(t *testing.T) {
	in := `// top
{
  "a": "http://x // not a comment", /* block */
  "b": [1, 2,],
  "c": {"d": "\"/*\"",},
}`
	var m map[string]any
	if err := json.Unmarshal(StripJSONC([]byte(in)), &m); err != nil {
		t.Fatalf("%v\n%s", err, StripJSONC([]byte(in)))
	}
	if m["a"] != "http://x // not a comment" || len(m["b"].([]any)) != 2 || m["c"].(map[string]any)["d"] != `"/*"` {
		t.Errorf("got %v", m)
	}
}

// A Copy entry is read from the agent's own folder variable when it is
// set, the folder's part of its path taken off; from home otherwise.
func TestHomeSource(t *testing.T) {
	claude := Home{DirEnv: "CLAUDE_CONFIG_DIR", Dir: ".claude"}
	for _, c := range []struct {
		h                 Home
		dirEnv, rel, want string
	}{
		{claude, "", ".claude/.credentials.json", "/h/.claude/.credentials.json"},
		{claude, "/c", ".claude/.credentials.json", "/c/.credentials.json"},
		{claude, "/c", ".claude.json", "/c/.claude.json"},
		{Home{DirEnv: "CODEX_HOME", Dir: ".codex"}, "/x", ".codex/auth.json", "/x/auth.json"},
		{Home{Copy: []string{".aider.conf.yml"}}, "/x", ".aider.conf.yml", "/h/.aider.conf.yml"},
	} {
		if got := c.h.Source("/h", c.dirEnv, c.rel); got != c.want {
			t.Errorf("%+v.Source(%q, %q) = %q, want %q", c.h, c.dirEnv, c.rel, got, c.want)
		}
	}
}
