package runner

import (
	"slices"
	"strings"
	"testing"
)

// --coder acp gives the ACP adapter what the agent's own entry says it
// needs beyond the protocol (runner/acp knows no agent by name): opencode
// keeps its API off the proxy and asks first, Gemini CLI reads files
// itself; any other ACP agent runs as given.
func TestCoderACPTakesTheAgentsEntry(t *testing.T) {
	t.Parallel()
	open := func(argv ...string) Adapter {
		t.Helper()
		a, err := NewAdapter("acp", "", argv)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	oc := open("opencode", "acp")
	if argv, _ := oc.Argv(""); !slices.Contains(argv, "--hostname") {
		t.Errorf("opencode acp starts as %q, without its --hostname", argv)
	}
	if env := strings.Join(oc.Env(), "\n"); !strings.Contains(env, "OPENCODE_PERMISSION=") {
		t.Errorf("opencode acp's env lacks its permission: %q", env)
	}
	type delegating interface{ ReadDelegation() bool }
	if g, ok := open("gemini", "--acp").(delegating); !ok || g.ReadDelegation() {
		t.Error("Gemini CLI over ACP is offered fs/read_text_file")
	}
	other := open("some-acp-agent", "--stdio")
	if argv, _ := other.Argv(""); !slices.Equal(argv, []string{"some-acp-agent", "--stdio"}) || len(other.Env()) != 0 {
		t.Errorf("another ACP agent: argv %q, env %q", argv, other.Env())
	}
	if d, ok := other.(delegating); !ok || !d.ReadDelegation() {
		t.Error("another ACP agent is not offered fs/read_text_file")
	}
}
