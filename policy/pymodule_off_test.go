package policy

import "testing"

// TestWorkspaceModuleOff: python -m of a module whose file the working
// directory or the line's workspace PYTHONPATH holds is the project's
// script, allowed with the sandbox off (pymodule_off.go); an installed
// package's module, a partial match and a line that wrote first ask.
func TestWorkspaceModuleOff(t *testing.T) {
	ctx := testEnv(t)
	writeWS(t, ctx.Workspace, map[string]string{
		"app/__init__.py":              "",
		"app/cli.py":                   "print('x')\n",
		"src/tokentoss/__init__.py":    "",
		"src/tokentoss/cli.py":         "print('x')\n",
		"src/tokentoss/__main__.py":    "print('x')\n",
		"services/api/app/__init__.py": "",
		"json/__init__.py":             "",
	})
	checkOffWants(t, ctx, map[string]Decision{
		"python -m app.cli --help":                           Allow,
		"uv run python -m app.cli --help":                    Allow,
		"PYTHONPATH=src python -m tokentoss.cli --help":      Allow,
		"PYTHONPATH=src python3 -m tokentoss":                Allow,
		"python -m tokentoss.cli":                            Ask, // not on sys.path without PYTHONPATH=src
		"python -m app.missing":                              Ask,
		"cd services/api && python -m app.cli":               Ask,   // that app has no cli
		"python -m json.tool x.json":                         Allow, // a known tool (pymodule_tools.go), judged as before
		"python -m somepkg.cli":                              Ask,
		"PYTHONPATH=/tmp/evil python -m evilmod":             Ask,
		"echo 'import os' > app/cli.py && python -m app.cli": Ask,
	})
}
