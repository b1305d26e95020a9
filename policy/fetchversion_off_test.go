package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFetchOfAnotherVersionAsksOff (off30): with the sandbox off (or in
// place) a fetch-and-run of a tool the project declares is the project's
// own chosen tool, but `bunx vitest@latest`, `npx eslint@9.0.0`, `uvx
// ruff@0.6.9` and `uv tool run black==24.8.0` name a version: the
// launcher downloads that version from the registry, whatever the project
// locked, and runs it on the host. polcorp14 labels `bunx --bun
// vitest@latest run` and `uvx ruff@0.6.9 check .` sandbox-only; the
// declared workspace of TestPolcorpOffPrepared allowed both.
func TestFetchOfAnotherVersionAsksOff(t *testing.T) {
	ctx := testEnv(t)
	files := map[string]string{
		"package.json":   `{"devDependencies":{"vitest":"^1.6.0","eslint":"^8"}}`,
		"pyproject.toml": "[project]\nname = \"app\"\nversion = \"0.1.0\"\n\n[dependency-groups]\ndev = [\n  \"ruff>=0.6\",\n  \"black>=24\",\n]\n",
	}
	for f, text := range files {
		if err := os.WriteFile(filepath.Join(ctx.Workspace, f), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	checkOnOffIn(t, ctx, []onOff{
		// The declared name, no version: the project's tool (unchanged).
		{"npx vitest run", Allow, Allow},
		{"bunx --bun vitest run", Allow, Allow},
		{"uvx ruff check .", Allow, Allow},
		{"uv tool run black --check .", Allow, Allow},
		// A version on the line: a download nobody locked.
		{"bunx --bun vitest@latest run", Allow, Ask},
		{"npx vitest@latest run", Allow, Ask},
		{"npx eslint@9.0.0 .", Allow, Ask},
		{"uvx ruff@0.6.9 check .", Allow, Ask},
		{"uvx ruff@latest check .", Allow, Ask},
		{"uv tool run black==24.8.0 --check .", Allow, Ask},
	})
}
