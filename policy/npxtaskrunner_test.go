package policy

import "testing"

// TestNpxTaskRunnerOwnVerbs: turbo, nx and lerna fetched or run through
// npx/bunx are judged by the task runners' own table (monorepotasks.go), as
// when they are called by name: their release, publish, login and migrate
// verbs ask in both sandbox modes, and their plain task runs stay allowed
// with the sandbox on. polcorp15's `npx nx release --yes` (nx version,
// changelog and publish to the registry, gridatek/nx-migrate-action-demo's
// CLAUDE.md) was allowed with the sandbox on as "checks or formats the
// project"; `npx lerna run build` asked as an unknown package.
func TestNpxTaskRunnerOwnVerbs(t *testing.T) {
	ctx := testEnv(t)
	on := ctx
	on.Sandboxed = true
	e := Default()
	for _, cmd := range []string{
		"npx nx release --yes", "npx nx release publish", "bunx nx release", "npx -y nx@latest release --skip-publish",
		"npx turbo login", "npx turbo link", "npx lerna publish from-package --yes", "npx lerna version --yes",
		"npx nx connect", "npx nx run-many -t publish",
	} {
		for _, c := range []Context{on, ctx} {
			if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: c}); v.Decision == Allow {
				t.Errorf("sandbox %v: %q allowed by %s (%s)", c.Sandboxed, cmd, v.Rule, v.Reason)
			}
		}
	}
	for _, cmd := range []string{
		"npx nx run-many -t lint test build", "npx nx run-many --target=build --all --configuration=production",
		"npx lerna run build", "npx lerna run test --scope @acme/core --concurrency 1", "npx lerna list --all",
		"npx turbo run build --filter=web", "npx nx show projects",
	} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: on}); v.Decision != Allow {
			t.Errorf("sandbox on: %q is %s by %s (%s), want allow", cmd, v.Decision, v.Rule, v.Reason)
		}
	}
}
