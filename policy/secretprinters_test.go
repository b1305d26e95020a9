package policy

import "testing"

// TestSecretPrinters holds polcorp6's U10 as a class: programs that print
// a project's resolved secrets (compose config, in any of its spellings;
// inline code and python -m dotenv that load a dotenv file) ask as `cat
// .env` does, with the sandbox on and off, while the compose listings and
// plain inline code stay allowed.
func TestSecretPrinters(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	on := ctx
	on.Sandboxed = true
	secret := []string{
		"docker compose config",
		"docker-compose config",
		"podman compose config",
		"podman-compose config",
		"docker compose --env-file .env.prod config",
		"docker compose -p app config --no-interpolate",
		"docker compose convert",
		"docker compose config > resolved.yml",
		`python3 -c "from dotenv import dotenv_values; print(dotenv_values())"`,
		`python3 -c "import dotenv; print(dotenv.dotenv_values())"`,
		`python -c "from dotenv import load_dotenv; import os; load_dotenv(); print(dict(os.environ))"`,
		`python3 -c "from dotenv import get_key; print(get_key('.env', 'DB_PASSWORD'))"`,
		`node -e "require('dotenv').config(); console.log(process.env)"`,
		`node -e "console.log(require('dotenv').parse(require('fs').readFileSync('.env')))"`,
		"python -m dotenv list",
		"python3 -m dotenv get SECRET_KEY",
	}
	for _, cmd := range secret {
		for _, cx := range []Context{on, ctx} {
			v := e.Check(Query{Kind: KindShell, Command: cmd, Context: cx})
			if v.Decision != Ask || v.Rule != RulePathReadSecret {
				t.Errorf("sandbox %v: %q: got %s %s (%s), want ask %s", cx.Sandboxed, cmd, v.Decision, v.Rule, v.Reason, RulePathReadSecret)
			}
		}
	}
	allowedBoth := []string{
		"docker compose ps",
		"docker compose config --services",
		"docker compose logs",
	}
	for _, cmd := range allowedBoth {
		for _, cx := range []Context{on, ctx} {
			if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: cx}); v.Decision != Allow {
				t.Errorf("sandbox %v: %q: got %s %s (%s), want allow", cx.Sandboxed, cmd, v.Decision, v.Rule, v.Reason)
			}
		}
	}
	allowedOn := []string{
		`python3 -c "import json; print(json.dumps({'a': 1}))"`,
		`python3 -c "import dotenv; print(dotenv.__version__)"`,
		"python -m dotenv --version",
	}
	for _, cmd := range allowedOn {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: on}); v.Decision != Allow {
			t.Errorf("sandbox on: %q: got %s %s (%s), want allow", cmd, v.Decision, v.Rule, v.Reason)
		}
	}
}
