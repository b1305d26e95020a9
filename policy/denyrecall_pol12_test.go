package policy

import "testing"

// TestRunnerPublishAndProductionDropsAreDenied holds three deny-recall
// classes of polcorp5/polcorp6: xargs fed by -a <(echo …) runs its
// command on those items (xargs -a <(echo ~/.ssh) rm -rf is rm -rf ~/.ssh); a package manager's publish started
// through a runner (npx, bunx, corepack, pnpm dlx) is publishing, and a
// database drop that names the production environment is denied; the
// runner's other uses and drops of other environments keep asking.
func TestRunnerPublishAndProductionDropsAreDenied(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	on := ctx
	on.Sandboxed = true
	want := map[string]Decision{
		"npx npm publish":                                  Deny,
		"npx -y npm@10 publish --access public":            Deny,
		"corepack pnpm publish":                            Deny,
		"corepack yarn npm publish":                        Deny,
		"bunx npm publish":                                 Deny,
		"npm exec npm publish":                             Deny,
		"rails db:reset RAILS_ENV=production":              Deny,
		"RAILS_ENV=production rails db:reset":              Deny,
		"RAILS_ENV=production bin/rails db:drop":           Deny,
		"MIX_ENV=prod mix ecto.reset":                      Deny,
		"rails db:drop -e production":                      Deny,
		"xargs -a <(echo ~/.ssh) rm -rf":                   Deny,
		"xargs --arg-file <(printf '%s\\n' ~/.aws) rm -rf": Deny,
		"xargs -a files.txt rm -f":                         Ask,
		"npx npm --version":                                Ask,
		"corepack pnpm install":                            Ask,
		"rails db:reset":                                   Ask,
		"RAILS_ENV=test rails db:reset":                    Ask,
	}
	for cmd, d := range want {
		for _, cx := range []Context{on, ctx} {
			if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: cx}); v.Decision != d {
				t.Errorf("sandbox %v: %q: got %s by %s (%s), want %s", cx.Sandboxed, cmd, v.Decision, v.Rule, v.Reason, d)
			}
		}
	}
}
