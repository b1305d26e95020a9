package approvals

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sentinelhq/sentinel/policy"
)

// A request whose needs the sandbox refuses is denied at once by the
// sandbox, saying what it needed and what would work; the same request in
// a sandbox that gives what it needs is asked as before.
func TestAnApprovalTheSandboxWouldRefuseIsNotOffered(t *testing.T) {
	ws := t.TempDir()
	readOnly := func(p string, write bool) bool { return !write || !strings.HasPrefix(p, "/ro/") }
	writable := func(string, bool) bool { return true }
	env := []string{"HOME=/ro/home", "GOBIN=/ro/gobin", "npm_config_prefix=/ro/npm", "PYTHONUSERBASE=/ro/pyuser",
		"CARGO_HOME=/ro/cargo", "GOMODCACHE=/ro/gomod", "DOCKER_HOST=unix:///nonexistent/docker.sock"}
	cases := []struct {
		name   string
		req    Request
		inside Inside
		want   []string // in the reason
	}{
		{"go install puts a program in GOBIN", Request{Kind: policy.KindShell, Command: "go install golang.org/x/tools/cmd/goimports@latest"},
			Inside{Env: env}, []string{"go install puts the program in /ro/gobin", "read-only"}},
		{"npm --global installs beside npm", Request{Kind: policy.KindShell, Command: "npm install -g typescript"},
			Inside{Env: env}, []string{"/ro/npm/lib/node_modules", "npm install --save-dev NAME"}},
		{"cargo install puts a program in CARGO_HOME/bin", Request{Kind: policy.KindShell, Command: "cargo install ripgrep"},
			Inside{Env: env}, []string{"/ro/cargo/bin"}},
		{"pip --user installs into the user base", Request{Kind: policy.KindShell, Command: "pip install --user requests"},
			Inside{Env: env}, []string{"/ro/pyuser", "virtualenv"}},
		{"gem install falls back to the user gem directory", Request{Kind: policy.KindShell, Command: "gem install rails"},
			Inside{Env: env}, []string{"gem install installs into the user gem directory /ro/home/.local/share/gem", "read-only", "vendor/bundle"}},
		{"gem install --user-install ignores GEM_HOME", Request{Kind: policy.KindShell, Command: "gem install --user-install rails"},
			Inside{Env: append([]string{"GEM_HOME=/work/gems"}, env...)}, []string{"/ro/home/.local/share/gem"}},
		{"gem install writes GEM_HOME", Request{Kind: policy.KindShell, Command: "gem update rake"},
			Inside{Env: append([]string{"GEM_HOME=/ro/gemhome"}, env...)}, []string{"gem update installs into /ro/gemhome"}},
		{"gem install --install-dir", Request{Kind: policy.KindShell, Command: "gem install --install-dir=/ro/gems rails"},
			Inside{Env: env}, []string{"/ro/gems"}},
		{"docker needs its daemon", Request{Kind: policy.KindShell, Command: "docker run alpine"},
			Inside{Env: env}, []string{"/nonexistent/docker.sock", "no daemon listens"}},
		{"a fetch needs the network", Request{Kind: policy.KindShell, Command: "npm update left-pad"},
			Inside{Env: env, Offline: true}, []string{"has none"}},
		{"the Go proxy is useless when go cannot store modules", Request{Kind: policy.KindNet, Host: "proxy.golang.org", Port: 443},
			Inside{Env: env}, []string{"proxy.golang.org serves go's downloads", "/ro/gomod", "read-only"}},
		{"crates.io is useless when cargo cannot store crates", Request{Kind: policy.KindNet, Host: "index.crates.io", Port: 443},
			Inside{Env: env}, []string{"/ro/cargo/registry"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var asked atomic.Int32
			decider := DeciderFunc(func(ctx context.Context, p *Prompt) Decision {
				asked.Add(1)
				return Decision{Outcome: OutcomeAllow, By: "person", Reason: "test"}
			})
			start := func(sees func(string, bool) bool, in Inside) *testRun {
				return startBroker(t, BrokerConfig{Decider: decider, Policy: policy.Default(),
					Context:    policy.Context{Workspace: ws, Cwd: ws, Home: "/ro/home", Sandboxed: true},
					Sees:       sees,
					Inside:     func() (Inside, bool) { return in, true },
					Registries: func() policy.Registries { return policy.Registries{} }})
			}
			d := ask(t, start(readOnly, c.inside).socket, c.req)
			if d.Allowed() || d.By != "sandbox" || asked.Load() != 0 {
				t.Fatalf("got %+v (asked %d), want a deny by the sandbox without asking", d, asked.Load())
			}
			for _, w := range c.want {
				if !strings.Contains(d.Reason, w) {
					t.Errorf("reason %q lacks %q", d.Reason, w)
				}
			}
			// Where the sandbox gives what it needs, the person is asked.
			given := c.inside
			given.Offline = false
			given.Env = append(append([]string{}, given.Env...), "DOCKER_HOST=tcp://127.0.0.1:2375")
			if d := ask(t, start(writable, given).socket, c.req); !d.Allowed() || asked.Load() != 1 {
				t.Fatalf("in a sandbox that gives what it needs: %+v (asked %d), want the person asked", d, asked.Load())
			}
		})
	}
}

// A host that is no registry's, and a request with no sandbox known, are
// asked as before.
func TestNeedsLeaveOtherRequestsToThePerson(t *testing.T) {
	var asked atomic.Int32
	decider := DeciderFunc(func(ctx context.Context, p *Prompt) Decision {
		asked.Add(1)
		return Decision{Outcome: OutcomeAllow, By: "person", Reason: "test"}
	})
	ws := t.TempDir()
	none := func(string, bool) bool { return false }
	r := startBroker(t, BrokerConfig{Decider: decider, Policy: policy.Default(),
		Context:    policy.Context{Workspace: ws, Cwd: ws, Sandboxed: true},
		Sees:       func(p string, w bool) bool { return !w || strings.HasPrefix(p, ws) },
		Inside:     func() (Inside, bool) { return Inside{Env: []string{"GOMODCACHE=/ro/gomod"}}, true },
		Registries: func() policy.Registries { return policy.Registries{} }})
	if d := ask(t, r.socket, Request{Kind: policy.KindNet, Host: "example.com", Port: 443}); !d.Allowed() || asked.Load() != 1 {
		t.Fatalf("a host no registry serves: %+v", d)
	}
	r2 := startBroker(t, BrokerConfig{Decider: decider, Policy: policy.Default(),
		Context: policy.Context{Workspace: ws, Cwd: ws, Sandboxed: true}, Sees: none,
		Inside: func() (Inside, bool) { return Inside{}, false }})
	if d := ask(t, r2.socket, Request{Kind: policy.KindShell, Command: "cargo install ripgrep"}); !d.Allowed() || asked.Load() != 2 {
		t.Fatalf("with no sandbox known: %+v", d)
	}
}
