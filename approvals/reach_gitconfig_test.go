package approvals

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sentinelhq/sentinel/policy"
)

// `git config user.name x` on a config file the sandbox keeps read-only
// is denied with why, not offered; where the file is writable it is
// asked as before.
func TestAGitConfigWriteToAReadOnlyFileIsNotOffered(t *testing.T) {
	ws := t.TempDir()
	cfg := filepath.Join(ws, ".git", "config")
	for _, readOnly := range []bool{true, false} {
		var asked atomic.Int32
		decider := DeciderFunc(func(ctx context.Context, p *Prompt) Decision {
			asked.Add(1)
			return Decision{Outcome: OutcomeAllow, By: "person", Reason: "test"}
		})
		r := startBroker(t, BrokerConfig{Decider: decider, Policy: policy.Default(),
			Context: policy.Context{Workspace: ws, Cwd: ws},
			Sees:    func(p string, write bool) bool { return !(readOnly && write && p == cfg) }})
		d := ask(t, r.socket, Request{Kind: policy.KindShell, Command: "git config user.name x", Cwd: ws, Tool: "Bash", Adapter: "claude"})
		if j, _ := ReadJournaled(r.events(t)); len(j) == 0 || j[0].Request.Command == "" {
			t.Fatal("no request journaled")
		}
		switch {
		case readOnly && (d.Allowed() || d.By != "sandbox" || !strings.Contains(d.Reason, cfg+" read-only") || asked.Load() != 0):
			t.Errorf("read-only config: %+v (asked %d), want the sandbox's deny without asking", d, asked.Load())
		case !readOnly && d.By == "sandbox":
			t.Errorf("writable config: %+v, want it decided as before", d)
		}
	}
}

func TestGitConfigTarget(t *testing.T) {
	ctx := policy.Context{Workspace: "/ws", Home: "/home/u"}
	for _, tc := range []struct{ cmd, want string }{
		{"git config user.name x", "/ws/.git/config"},
		{"git config --global user.email a@b", "/home/u/.gitconfig"},
		{"git -C sub config --file cfg --unset a.b", "/ws/sub/cfg"},
		{"git config set core.x y", "/ws/.git/config"},
		{"git config user.name", ""},
		{"git config --get user.name", ""},
		{"git config --list", ""},
		{"git commit -m config", ""},
		{"echo git config a b", ""},
	} {
		argv := strings.Fields(tc.cmd)
		if got := gitConfigTarget(argv, "/ws", ctx); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.cmd, got, tc.want)
		}
	}
}
