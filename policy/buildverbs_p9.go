package policy

// Verbs polcorp9 found agents run that the tables did not know: listing
// forms of Rails' database tasks (they print the migrations' state and
// change nothing), maturin (a PyO3 project's build tool: build compiles
// the crate as cargo build does; develop also installs it and the
// manifest's dependencies into the project's virtualenv, sandbox only as
// every manifest install is; publish and upload are judged as publishing
// elsewhere), and yard's statistics (it parses the Ruby files, runs none).

func p9BuildVerbs(p, r, m, run verbClass) map[string]map[string]verbClass {
	railsList := map[string]verbClass{"db:migrate:status": r, "db:version": r}
	return map[string]map[string]verbClass{
		"rails":   railsList,
		"rake":    railsList,
		"maturin": {"build": p, "develop": m, "list-python": r, "--version": r, "-V": r},
		"yard":    {"stats": r},
	}
}
