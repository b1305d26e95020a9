package policy

import "testing"

// TestOffLocalTools: terraform validate/graph and a state-only docker
// inspect are allowed with the sandbox off (offlocal_tools.go); their
// neighbours that reach the cloud, the registry or a container's
// environment still ask or deny.
func TestOffLocalTools(t *testing.T) {
	checkOffWants(t, testEnv(t), map[string]Decision{
		"terraform validate":       Allow,
		"tofu validate":            Allow,
		"terraform graph | head":   Allow,
		"terraform validate -json": Allow,
		"docker inspect --format '{{.State.Health.Status}}' api-db":                     Allow,
		"docker inspect -f '{{json .State}}' app | jq .Status":                          Allow,
		"docker container inspect --format={{.State.Running}} web":                      Allow,
		"docker inspect -f '{{.Name}} {{.State.Status}}' a b":                           Allow,
		"terraform plan -destroy -out=/tmp/d.plan":                                      Ask, // off31: plan is allowed off (infraplan_off.go); its write to the person's /tmp is not
		"terraform init -backend=false":                                                 Ask,
		"terraform show":                                                                Ask,
		"terraform apply":                                                               Deny,
		"docker inspect app":                                                            Ask,
		"docker inspect app | jq '.[0].State'":                                          Ask,
		"docker inspect -f '{{.Config.Env}}' app":                                       Ask,
		"docker inspect -f '{{json .State}}{{.Config.Env}}' app":                        Ask,
		"docker inspect -f '{{range .Config.Env}}{{.}}{{end}}' app":                     Ask,
		"docker inspect -f '{{.State.Status}}' $(docker ps -q)":                         Ask,
		"DOCKER_HOST=tcp://evil.example:2375 docker inspect -f '{{.State.Status}}' app": Ask,
		"docker -H tcp://evil.example:2375 inspect -f '{{.State.Status}}' app":          Ask,
		"docker build -t acme/api:dev .":                                                Ask,
	})
}

// checkOffWants checks each line with the sandbox off in ctx: Allow must
// be allowed, Ask must not be, Deny must be denied.
func checkOffWants(t *testing.T, ctx Context, rows map[string]Decision) {
	t.Helper()
	e := Default()
	for cmd, want := range rows {
		v := e.Check(Query{Kind: KindShell, Command: cmd, Context: ctx})
		if want == Allow && v.Decision != Allow || want != Allow && v.Decision == Allow || want == Deny && v.Decision != Deny {
			t.Errorf("sandbox off: %q: %s by %s (%s), want %s", cmd, v.Decision, v.Rule, v.Reason, want)
		}
	}
}
