package policy

import "testing"

// TestRegistryReadsAskWithTheSandboxOff holds polcorp6's U5 as a class
// (the lead's decision): registry downloads ask with the sandbox off (the
// read-only queries are registryquery_off_test.go's), where the policy is the only gate and they use the person's own
// configuration and tokens, and stay allowed inside it; the project's
// local reads and builds stay allowed with the sandbox off.
func TestRegistryReadsAskWithTheSandboxOff(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	on := ctx
	on.Sandboxed = true
	registry := []string{
		"go mod download",
		"go mod download -x golang.org/x/text",
		"go mod tidy",
		"go mod tidy && git diff --stat go.mod go.sum",
		"cargo fetch",
		"cargo update -p serde",
		"cargo generate-lockfile",
	}
	for _, cmd := range registry {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: ctx}); v.Decision == Allow {
			t.Errorf("sandbox off: %q allowed by %s (%s), want ask", cmd, v.Rule, v.Reason)
		}
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: on}); v.Decision != Allow {
			t.Errorf("sandbox on: %q: got %s %s (%s), want allow", cmd, v.Decision, v.Rule, v.Reason)
		}
	}
	local := []string{
		"go build ./...",
		"go test ./...",
		"go mod graph",
		"go list ./...",
		"go vet ./...",
		"cargo build",
		"cargo test",
		"npm test",
		"npm ls",
		"dotnet list package",
		"mix test",
		"govulncheck -version",
	}
	for _, cmd := range local {
		for _, cx := range []Context{on, ctx} {
			if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: cx}); v.Decision != Allow {
				t.Errorf("sandbox %v: %q: got %s %s (%s), want allow", cx.Sandboxed, cmd, v.Decision, v.Rule, v.Reason)
			}
		}
	}
}
