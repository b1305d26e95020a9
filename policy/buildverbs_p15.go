package policy

// Build tools polcorp15 found unknown: Pants, a monorepo build system (its
// goals test, lint, fmt, fix, check and package build, test and format
// the project as bazel's do; list, dependencies, dependents, filedeps,
// peek and roots print the build graph; run runs the project's own code;
// generate-lockfiles and export resolve and fetch packages), and DVC, a
// data project's pipeline tool (repro and exp run run the project's own
// stages, as make runs its targets; status, dag, diff, metrics, params,
// plots and exp show print; pull and fetch download the data the project
// declares from its configured remote). Anything else, pants publish, dvc
// push, gc, checkout, remote, add and the rest among it, goes to the
// unknown-program judgment, which asks.

func p15BuildVerbs(p, r, m, run verbClass) map[string]map[string]verbClass {
	return map[string]map[string]verbClass{
		"pants": {"test": p, "lint": p, "fmt": p, "fix": p, "check": p, "package": p, "tailor": p, "list": r, "dependencies": r,
			"dependents": r, "filedeps": r, "peek": r, "roots": r, "paths": r, "help": r, "version": r, "--version": r, "run": run,
			"generate-lockfiles": m, "export": m},
		"dvc": {"repro": run, "exp run": run, "status": r, "dag": r, "diff": r, "metrics show": r, "metrics diff": r,
			"params diff": r, "plots show": p, "plots diff": p, "exp show": r, "exp diff": r, "doctor": r, "version": r,
			"--version": r, "pull": m, "fetch": m},
	}
}
