package policy

import "testing"

// TestLocalDevToolsAreEveryday: code generators, formatters, linters and
// doc builders that read the project and write inside it are allowed as
// the project's own tools (polcorp7 everyday/go, rust, python, java, infra);
// their publishing verbs and paths outside the workspace are not.
func TestLocalDevToolsAreEveryday(t *testing.T) {
	checkModes(t, []modeCase{
		{"gofumpt -l -w internal/", "allow", "allow"},
		{"shfmt -d scripts/", "allow", "allow"},
		{"mockgen -source=internal/store/store.go -destination=internal/store/mock_store.go -package=store", "allow", "allow"},
		{"buf lint && buf generate", "allow", "ask"},
		{"sqlc generate", "allow", "allow"},
		{"templ generate", "allow", "allow"},
		{"mkdocs build --strict", "allow", "allow"},
		{"sphinx-build -b html docs docs/_build/html", "allow", "allow"},
		{"bandit -r src -q", "allow", "allow"},
		{"javap -c -p build/classes/com/acme/Util.class", "allow", "allow"},
		{"rustc --version --verbose", "allow", "allow"},
		{"cargo udeps --all-targets", "allow", "allow"},
		{"cargo machete", "allow", "allow"},
		{"cargo insta test --review=false", "allow", "allow"},
		{"cargo deny check licenses", "allow", "allow"},
		{"rustc -C linker=/bin/sh main.rs", "!allow", "!allow"},
		{"go work sync", "allow", "allow"},  // off24: runs no code (projectrunners_off.go)
		{"tofu validate", "allow", "allow"}, // off24: installed providers, no API call (offlocal_tools.go)
		{"tofu fmt -check", "allow", "allow"},
		{"xmllint --noout pom.xml", "allow", "allow"},
		{"ansible-lint playbooks/site.yml", "allow", "allow"},
		{"dos2unix scripts/run.sh", "allow", "allow"},
		// publishing verbs and outside paths are not the project's own work
		{"buf push", "!allow", "!allow"},
		{"mkdocs gh-deploy", "!allow", "!allow"},
		{"tofu apply", "deny", "deny"},
		{"gofumpt -w ~/.bashrc", "!allow", "!allow"},
		{"mockgen -source=x.go -destination=/etc/cron.d/x", "!allow", "!allow"},
		{"shfmt -w ~/.profile", "!allow", "!allow"},
	})
}
