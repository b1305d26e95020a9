package runner

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/agentutil"
	"github.com/sentinelhq/sentinel/sandbox"
)

// containment is what holds the coder in: the approval broker on its
// private socket (wiring.go), the sandbox and its profile (wiring.go,
// inplace_profile.go, reach.go), what a real agent adds to both
// (start_coder.go's prepareAgent), the proxy's questions and refusals
// (proxy_asks.go) and a gate passed by (bypass.go). It is set up before
// the coder starts and closed when the run ends; it never decides how the
// run goes on, it only answers and records.
type containment struct {
	*runCore
	broker *approvals.Broker
	sb     *sandbox.Sandbox
	needs  *agentutil.Needs // what a real agent adds to the sandbox profile

	seen     atomic.Pointer[sandbox.Profile]  // the enforced profile, for the broker (reach.go)
	inside   atomic.Pointer[approvals.Inside] // its environment and network, for the broker (reach.go)
	bypassed atomic.Pointer[approvals.Bypass] // a tool call ran without Sentinel's allow (bypass.go)
	sockOnce sync.Once                        // socketPath
	sock     string                           // the broker's socket
	sockDir  string                           // its private directory, removed at the end ("" when none)
}

// start starts the broker, lets a real agent prepare, and prepares the sandbox on the coder's profile, which it
// returns.
func (r *containment) start(ctx context.Context) (sandbox.Profile, error) {
	if err := r.startBroker(); err != nil {
		return sandbox.Profile{}, err
	}
	if err := r.prepareAgent(); err != nil {
		return sandbox.Profile{}, err
	}
	profile := r.profile()
	var err error
	if r.opts.InPlace {
		if profile, err = r.inPlaceProfile(ctx, profile); err != nil {
			return profile, err
		}
		profile = r.withShellScope(profile)
	}
	pinPersonPrograms(r.opts.Project.Root, profile)
	r.sb, err = sandbox.Prepare(profile, sandbox.Options{Mode: r.opts.Sandbox.Mode, Asker: r.askHost, OnDeny: r.proxyDenied, OnExecDeny: r.execDenied})
	if err != nil {
		return profile, err
	}
	r.noteSandbox(r.sb)
	return profile, nil
}
