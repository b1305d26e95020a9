package runner

import (
	"slices"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/shellscope"
	"github.com/sentinelhq/sentinel/sandbox"
)

// In place, a scoped agent's state dir becomes the profile's AgentState
// (its commands cannot write it) when it is a writable root of its own;
// one inside another writable root (a [sandbox] writable over the cache
// dir, a home under /tmp) cannot be left out, and the journal says the
// commands can write it; an agent whose state dir is not writable gets
// nothing. Seen failing without keepAgentState (no AgentState, nothing
// said). Not parallel: it swaps scopeABI.
func TestInPlaceAgentStateIsTheAgentsAlone(t *testing.T) {
	if len(shellscope.Places("/w")) == 0 {
		t.Skip("no system shell on this host")
	}
	defer func(old func() int) { scopeABI = old }(scopeABI)
	scopeABI = func() int { return 6 }
	const state = "/h/.cache/sentinel/exec/r-t.agent"
	for _, c := range []struct {
		name     string
		state    string
		writable []string
		kept     bool
		said     string
	}{
		{"its own root", state, []string{"/h/.cache/go-build", state}, true, ""},
		{"in a writable root", state, []string{"/h/.cache", state}, false, "lies in the writable /h/.cache, so the commands it starts can write its transcripts"},
		{"under /tmp", "/tmp/h/r-t.agent", []string{"/tmp/h/r-t.agent"}, false, "lies in the writable /tmp"},
		{"not writable", state, []string{"/h/.cache/go-build"}, false, ""},
	} {
		for _, coder := range []string{"claude", "codex"} {
			r, path := scopeRun(t, coder)
			r.ws = &Workspace{Dir: "/w/proj", agent: c.state}
			prof := r.withShellScope(sandbox.Profile{Workspace: "/w/proj", Writable: c.writable})
			if got := slices.Equal(prof.AgentState, []string{c.state}); got != c.kept {
				t.Errorf("%s, %s: AgentState = %q, want kept %v", c.name, coder, prof.AgentState, c.kept)
			}
			evs, err := journal.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var said []string
			for _, ev := range evs {
				said = append(said, ev.Text)
			}
			if c.said == "" && len(said) > 0 || c.said != "" && !slices.ContainsFunc(said, func(s string) bool { return strings.Contains(s, c.said) }) {
				t.Errorf("%s, %s: the journal said %q, want %q", c.name, coder, said, c.said)
			}
		}
	}
}
