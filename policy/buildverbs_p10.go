package policy

// Verbs polcorp10 found agents run that the tables did not know, by class:
// Python's environment managers beside uv and poetry (pipenv, rye, pdm,
// hatch) install what the lock file names (verbManifest: sandbox only),
// list what they manage, and build, test or format the project; their
// `run CMD` is judged as CMD (envRunner), their add/install of a named
// package as any added dependency.

func p10BuildVerbs(p, r, m, run verbClass) map[string]map[string]verbClass {
	return map[string]map[string]verbClass{
		"pipenv": {"install": m, "sync": m, "lock": m, "graph": r, "requirements": r, "verify": r, "scripts": r,
			"--venv": r, "--where": r, "--py": r, "--version": r},
		"rye":   {"sync": m, "lock": m, "test": p, "fmt": p, "lint": p, "build": p, "show": r, "list": r, "--version": r},
		"pdm":   {"install": m, "sync": m, "lock": m, "list": r, "show": r, "info": r, "build": p, "--version": r},
		"hatch": {"test": p, "fmt": p, "build": p, "version": r, "status": r, "env show": r, "--version": r},
	}
}
