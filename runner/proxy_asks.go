package runner

import (
	"context"
	"strconv"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/sandbox"
)

// askHost routes a host the proxy does not know to the broker as a net
// request, so it gets the same policy, templates and person as any other.
// A host the coder's own tool call was just allowed to reach is one of
// those templates (approvals.HostGrantTTL): nothing here remembers hosts.
func (r *containment) askHost(ctx context.Context, host string, port int) (bool, string) {
	if r.broker == nil {
		return false, "no broker"
	}
	d := r.broker.Decide(ctx, approvals.Request{Kind: policy.KindNet, Host: host, Port: port,
		URL: "https://" + host + ":" + strconv.Itoa(port) + "/", Adapter: approvals.ProxyAdapter})
	if !d.Allowed() {
		return false, registryDenied(d.Reason, host, port, r.registries())
	}
	return true, d.Reason
}

// proxyDenied journals a host the sandbox's proxy refused and queues its
// reason for the coder's agent: the tool that met the refusal got only a
// 403 (its body and X-Sentinel-Denied header name the reason, but most
// tools do not show them), so a hook-based agent is also told with the
// tool's result, the way a policy deny reaches it.
func (r *containment) proxyDenied(d sandbox.Denial) {
	r.emit(journal.Tool, KindNetDenied, "proxy: "+d.Line(),
		NetDeniedNote{Host: d.Host, Port: d.Port, Reason: d.Reason, Unreachable: d.Unreachable})
	if r.broker != nil {
		r.broker.NoteForCoder(d.Note())
	}
}

// execDenied journals a program the sandbox refused to run because it is
// in [service] denied_executables (tool lane: the coder's action).
func (r *containment) execDenied(d sandbox.ExecDenial) {
	r.emit(journal.Tool, KindExecDenied, "sandbox: "+d.Line(),
		ExecDeniedNote{Entry: d.Entry, Path: d.Path, File: d.File, Copy: d.Copy})
}
