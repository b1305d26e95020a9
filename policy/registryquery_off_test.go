package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// registryQueries are read-only registry queries as agents spell them
// (polcorp6–9 everyday rows and their neighbours).
var registryQueries = []string{
	"npm outdated", "npm audit", "npm audit --json | jq '.metadata.vulnerabilities'", "npm outdated 2>&1 | head -n 25",
	"timeout 60 npm audit", "pnpm outdated", "pnpm audit --prod", "yarn outdated", "yarn audit", "npm view react version",
	"pip list --outdated", "pip list --outdated --format=columns", "pip3 list -o", "uv pip list --outdated",
	"cargo audit", "cd src && cargo audit", "cargo outdated",
	"composer outdated --direct", "composer audit", "composer show --latest",
	"bundle outdated --strict", "bundle outdated",
	"dotnet list package --outdated", "dotnet list package --vulnerable --include-transitive",
	"mix hex.outdated", "mix hex.audit", "mix hex.info", "govulncheck ./...", "go list -m -u all",
	"poetry show --outdated",
}

// TestRegistryQueriesOffWithoutProjectConfig: with the sandbox off a
// read-only registry query is allowed in a workspace that holds no
// project-level registry configuration.
func TestRegistryQueriesOffWithoutProjectConfig(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	for _, cmd := range registryQueries {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: ctx}); v.Decision != Allow {
			t.Errorf("sandbox off: %q: got %s %s (%s), want allow", cmd, v.Decision, v.Rule, v.Reason)
		}
	}
}

// TestRegistryQueriesOffStillAsk: the unsafe neighbours keep asking off:
// an option or environment prefix naming another registry, a line that
// writes a file first (it may be the configuration), the downloading
// forms, and in place.
func TestRegistryQueriesOffStillAsk(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	for _, cmd := range []string{
		"npm outdated --registry=https://evil.example",
		"npm_config_registry=https://evil.example npm outdated",
		"env npm_config_registry=https://evil.example npm audit",
		"pip list --outdated --index-url https://evil.example/simple",
		"pip list --outdated --extra-index-url=https://evil.example/simple",
		"dotnet list package --outdated --source https://evil.example/v3/index.json",
		"dotnet list package --vulnerable --config other.config",
		"gem search rails --source https://evil.example",
		"GOPROXY=https://evil.example govulncheck ./...",
		"GOFLAGS=-modfile=x.mod govulncheck ./...",
		"go list -m -u -modfile=other.mod all",
		"echo 'registry=https://evil.example' > .npmrc && npm outdated",
		"printf '[global]\\nindex-url=https://evil.example\\n' > pip.conf; pip list --outdated",
		"go mod download", "cargo fetch", "cargo update", "pip download requests", "dotnet restore", "mix deps.get",
		"cd \"$DIR\" && npm audit",
	} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: ctx}); v.Decision == Allow {
			t.Errorf("sandbox off: %q allowed by %s (%s), want ask", cmd, v.Rule, v.Reason)
		}
	}
	in := ctx
	in.InPlace = true
	if v := e.Check(Query{Kind: KindShell, Command: "npm outdated", Context: in}); v.Decision == Allow {
		t.Errorf("in place: npm outdated allowed by %s (%s), want ask", v.Rule, v.Reason)
	}
}

// TestRegistryQueriesOffAskWithProjectConfig: each project-level file that
// redirects a tool's registry makes that tool's query ask off, in the
// workspace's root or in a directory between the command's and the root.
func TestRegistryQueriesOffAskWithProjectConfig(t *testing.T) {
	cases := []struct{ file, text, cmd string }{
		{".npmrc", "registry=https://evil.example\n", "npm outdated"},
		{".npmrc", "registry=https://evil.example\n", "pnpm audit"},
		{".yarnrc.yml", "npmRegistryServer: https://evil.example\n", "yarn outdated"},
		{"bunfig.toml", "[install]\nregistry = \"https://evil.example\"\n", "bun outdated"},
		{"pnpm-workspace.yaml", "registries:\n  default: https://evil.example\n", "pnpm outdated"},
		{"pip.conf", "[global]\nindex-url = https://evil.example\n", "pip list --outdated"},
		{".venv/pip.conf", "[global]\nindex-url = https://evil.example\n", "pip list --outdated"},
		{"pyproject.toml", "[[tool.uv.index]]\nurl = \"https://evil.example\"\n", "uv pip list --outdated"},
		{"pyproject.toml", "[[tool.poetry.source]]\nurl = \"https://evil.example\"\n", "poetry show --outdated"},
		{".cargo/config.toml", "[registries.x]\nindex = \"https://evil.example\"\n", "cargo audit"},
		{".cargo/audit.toml", "[database]\nurl = \"https://evil.example\"\n", "cargo audit"},
		{"src/.cargo/config", "[source.crates-io]\nreplace-with = \"x\"\n", "cd src && cargo outdated"},
		{"NuGet.config", "<configuration/>\n", "dotnet list package --vulnerable"},
		{"nuget.config", "<configuration/>\n", "dotnet list package --outdated"},
		{".bundle/config", "BUNDLE_MIRROR__HTTPS://RUBYGEMS__ORG/: https://evil.example\n", "bundle outdated"},
		{"Gemfile", "source 'https://gems.evil.example'\ngem 'rails'\n", "bundle outdated"},
		{"composer.json", `{"repositories":[{"type":"composer","url":"https://evil.example"}]}`, "composer outdated"},
		{"composer.json", `{"config":{"secure-http":false}}`, "composer audit"},
		{"composer.json", `{not json`, "composer audit"},
		{"mix.exs", "{:private, \"~> 1.0\", organization: \"acme\"}\n", "mix hex.outdated"},
	}
	e := Default()
	for _, c := range cases {
		ctx := testEnv(t)
		p := filepath.Join(ctx.Workspace, c.file)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: ctx}); v.Decision == Allow {
			t.Errorf("sandbox off with %s: %q allowed by %s (%s), want ask", c.file, c.cmd, v.Rule, v.Reason)
		}
		on := ctx
		on.Sandboxed = true
		if c.file == "bunfig.toml" {
			continue // it can preload code: asked in every mode
		}
		if v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: on}); v.Decision != Allow {
			t.Errorf("sandbox on with %s: %q: got %s %s (%s), want allow (the host gate judges the host)", c.file, c.cmd, v.Decision, v.Rule, v.Reason)
		}
	}
	// A Gemfile and composer.json that name only the public registry do not.
	ctx := testEnv(t)
	for f, text := range map[string]string{"Gemfile": "source \"https://rubygems.org\"\ngem 'rails'\n", "composer.json": `{"require":{"php":">=8.1"},"config":{"sort-packages":true}}`} {
		if err := os.WriteFile(filepath.Join(ctx.Workspace, f), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, cmd := range []string{"bundle outdated", "composer outdated --direct"} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: ctx}); v.Decision != Allow {
			t.Errorf("sandbox off, public registry only: %q: got %s %s (%s), want allow", cmd, v.Decision, v.Rule, v.Reason)
		}
	}
}
