package approvals

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sentinelhq/sentinel/policy"
)

// gem install into the workspace (a relative --install-dir, a GEM_HOME
// the sandbox lets it write) and gem's read-only verbs are asked or
// allowed as before, never refused for the sandbox's sake.
func TestGemIntoTheWorkspaceIsStillAsked(t *testing.T) {
	var asked atomic.Int32
	decider := DeciderFunc(func(ctx context.Context, p *Prompt) Decision {
		asked.Add(1)
		return Decision{Outcome: OutcomeAllow, By: "person", Reason: "test"}
	})
	ws := t.TempDir()
	r := startBroker(t, BrokerConfig{Decider: decider, Policy: policy.Default(),
		Context: policy.Context{Workspace: ws, Cwd: ws, Home: "/ro/home", Sandboxed: true},
		Sees:    func(p string, w bool) bool { return !w || strings.HasPrefix(p, ws) },
		Inside: func() (Inside, bool) {
			return Inside{Env: []string{"HOME=/ro/home", "GEM_HOME=" + ws + "/gems"}}, true
		},
		Registries: func() policy.Registries { return policy.Registries{} }})
	for i, cmd := range []string{"gem install rails", "gem install -i vendor/gems rails", "gem install --install-dir " + ws + "/g rails"} {
		if d := ask(t, r.socket, Request{Kind: policy.KindShell, Command: cmd}); !d.Allowed() || int(asked.Load()) != i+1 {
			t.Fatalf("%s: %+v (asked %d), want the person asked", cmd, d, asked.Load())
		}
	}
}
