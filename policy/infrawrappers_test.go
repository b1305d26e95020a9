package policy

import "testing"

// TestInfraWrapperTeardown: terragrunt (a terraform wrapper), atmos
// (terraform and helmfile stacks) and SST (serverless stacks) tear down
// real infrastructure with their destroy and remove verbs, run by name or
// fetched through npx/bunx/pnpm dlx; as terraform destroy and the cloud
// CLIs' deletes (cloudwipe.go) they are denied in both sandbox modes, and
// their other forms ask as the infrastructure tools' do (remoteTool).
// polcorp15's `terragrunt run-all destroy --terragrunt-non-interactive`
// and `npx sst remove --stage production` asked as an unknown program and
// an unknown package.
func TestInfraWrapperTeardown(t *testing.T) {
	ctx := testEnv(t)
	on := ctx
	on.Sandboxed = true
	e := Default()
	for _, cmd := range []string{
		"terragrunt run-all destroy --terragrunt-non-interactive", "terragrunt destroy -auto-approve", "terragrunt run --all destroy",
		"npx sst remove --stage production", "bunx sst remove --stage prod", "pnpm dlx sst remove", "sst remove --stage production",
		"atmos terraform destroy vpc -s prod", "npx serverless remove --stage prod",
	} {
		for _, c := range []Context{on, ctx} {
			if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: c}); v.Decision != Deny {
				t.Errorf("sandbox %v: %q is %s by %s (%s), want deny", c.Sandboxed, cmd, v.Decision, v.Rule, v.Reason)
			}
		}
	}
	for _, cmd := range []string{"terragrunt plan", "terragrunt hclfmt --terragrunt-check", "sst diff --stage dev", "atmos terraform plan vpc -s dev"} {
		for _, c := range []Context{on, ctx} {
			if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: c}); v.Decision == Deny {
				t.Errorf("sandbox %v: %q denied by %s (%s), want it asked", c.Sandboxed, cmd, v.Rule, v.Reason)
			}
		}
	}
}
