package policy

import "testing"

// TestUvxDeclaredInAOneLineList (off30): pyproject.toml often lists
// requirements on one line (`dev = ["pytest>=8", "ruff>=0.6"]`,
// `dependencies = ["fastapi", "uvicorn[standard]>=0.30"]`); the declared
// test read one requirement per line only, so `uvx ruff check .` asked off
// in such a project. A one-line list under another key (keywords,
// classifiers) declares nothing.
func TestUvxDeclaredInAOneLineList(t *testing.T) {
	ctx := testEnv(t)
	writeWS(t, ctx.Workspace, map[string]string{
		"pyproject.toml": "[project]\nname = \"app\"\nkeywords = [\"bandit\", \"lint\"]\n" +
			"dependencies = [\"fastapi\", \"uvicorn[standard]>=0.30\"]\n\n" +
			"[dependency-groups]\ndev = [\"pytest>=8\", 'ruff>=0.6']\n\n" +
			"[project.optional-dependencies]\ntypes = [\"mypy==1.11.2\"]\n",
	})
	checkOnOffIn(t, ctx, []onOff{
		{"uvx ruff check .", Allow, Allow},
		{"uv tool run mypy src", Allow, Allow},
		{"uvx ruff@0.6.9 check .", Allow, Ask},
		{"uvx bandit -r src", Allow, Ask}, // off31: bandit, not black, which offtools.toml lists
		{"uvx cowsay hi", Ask, Ask},
	})
}
