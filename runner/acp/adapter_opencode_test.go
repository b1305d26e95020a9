package acp

import (
	"slices"
	"strings"
	"testing"
)

// `opencode acp` serves its own API on localhost, kept off the proxy, and is
// made to ask before every action whatever its settings say; other agents'
// commands are left as given.
func TestOpencodeArgvAndEnv(t *testing.T) {
	cases := []struct {
		argv     []string
		want     []string
		opencode bool
	}{
		{[]string{"opencode", "acp"}, []string{"opencode", "acp", "--hostname", "localhost"}, true},
		{[]string{"/usr/bin/opencode", "acp", "--print-logs"}, []string{"/usr/bin/opencode", "acp", "--hostname", "localhost", "--print-logs"}, true},
		{[]string{"opencode", "acp", "--hostname", "127.0.0.2"}, []string{"opencode", "acp", "--hostname", "127.0.0.2"}, true},
		{[]string{"opencode", "acp", "--hostname=::1"}, []string{"opencode", "acp", "--hostname=::1"}, true},
		{[]string{"opencode", "run", "x"}, []string{"opencode", "run", "x"}, false},
		{[]string{"gemini", "--acp"}, []string{"gemini", "--acp"}, false},
	}
	for _, c := range cases {
		a, err := New(c.argv)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := a.Argv("task")
		if !slices.Equal(got, c.want) {
			t.Errorf("Argv(%q) = %q, want %q", c.argv, got, c.want)
		}
		env := strings.Join(a.Env(), "\n")
		for _, kv := range []string{"NO_PROXY=localhost", `OPENCODE_PERMISSION={"bash":"ask"`, "OPENCODE_DISABLE_PROJECT_CONFIG=1"} {
			if strings.Contains(env, kv) != c.opencode {
				t.Errorf("Env for %q has %s: %v, want %v", c.argv, kv, !c.opencode, c.opencode)
			}
		}
	}
}
