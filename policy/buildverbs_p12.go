package policy

// Build tools polcorp12 found unknown: scala-cli, Scala's single-project
// build tool (its compile, test and fmt build, test and format the project
// as sbt's do; run runs the project's own code; the rest, publish and
// package among them, goes to the unknown-program judgment, which asks).

func p12BuildVerbs(p, r, m, run verbClass) map[string]map[string]verbClass {
	return map[string]map[string]verbClass{
		"scala-cli": {"compile": p, "test": p, "fmt": p, "run": run, "version": r, "--version": r},
	}
}
