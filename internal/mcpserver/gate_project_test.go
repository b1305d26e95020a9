//go:build unix

package mcpserver

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/config"
)

// The exec gate of either mode decides through the run's chain: the
// project's .sentinel/policy.toml counts only once the person trusted it
// (one line says it was left out before), and in allowlist mode a line
// the policy denies is refused even when the allowlist covers it.
func TestGateUsesTheTrustedProjectsPolicy(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	pf := filepath.Join(f.rw, ".sentinel", "policy.toml")
	write(t, pf, "[[rule]]\nid = \"no-echo-here\"\ndecision = \"deny\"\nreason = \"the project says no echo\"\nargv = [\"echo\"]\n")
	newServer := func() (*Server, string) {
		var warn bytes.Buffer
		srv, err := New(mustConfig(t, f.config("")), Options{Transport: "memory", Warn: &warn})
		if err != nil {
			t.Fatal(err)
		}
		return srv, warn.String()
	}

	srv, warn := newServer()
	if !strings.Contains(warn, pf+" is not trusted") || strings.Count(warn, "\n") != 1 {
		t.Fatalf("an untrusted project policy.toml should be left out with one line, got %q", warn)
	}
	if err := refuseDenied(srv.gate.verdict("echo hi", srv.policyContext(f.rw))); err != nil {
		t.Fatalf("an untrusted project's rule decided: %v", err)
	}
	srv.Close()

	sum, _, err := config.HashFile(pf)
	if err != nil {
		t.Fatal(err)
	}
	if err := config.TrustFile(f.rw, "policy.toml", sum); err != nil {
		t.Fatal(err)
	}
	srv, warn = newServer()
	defer srv.Close()
	if warn != "" {
		t.Fatalf("a trusted file got a warning: %q", warn)
	}
	var r *Refusal
	if err := refuseDenied(srv.gate.verdict("echo hi", srv.policyContext(f.rw))); !errors.As(err, &r) || r.Class != ClassPolicyDeny || !strings.Contains(r.Rule, "no-echo-here") {
		t.Fatalf("the trusted project's deny rule did not decide: %v", err)
	}
	// The built-in rules decide in allowlist mode too: "git" is allowlisted,
	// a force push is not the person's to give by an allowlist entry.
	if err := refuseDenied(srv.gate.verdict("git push --force origin main", srv.policyContext(f.rw))); !errors.As(err, &r) || r.Class != ClassPolicyDeny {
		t.Fatalf("allowlist mode let a policy deny through: %v", err)
	}
	if _, err := srv.execTool(t.Context(), execArgs{Command: "git push --force origin main", Cwd: f.rw}); !errors.As(err, &r) || r.Class != ClassPolicyDeny {
		t.Fatalf("the exec tool in allowlist mode did not refuse a policy deny: %v", err)
	}
}
