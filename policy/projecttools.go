package policy

import "path/filepath"

// With the sandbox off, a workspace program that stands in for a tool the
// policy knows is judged as that tool, as it is inside the sandbox: the
// project's build-tool wrappers (./gradlew is gradle, ./mvnw is mvn), a
// package manager's installed programs (.venv/bin/pytest is pytest,
// node_modules/.bin/jest is jest, vendor/bin/phpunit is phpunit) and a
// project's binstubs (bin/rails is rails). `gradle build`, `pytest` and
// `rails test` are allowed without the sandbox; the stand-in runs the same
// project code: a wrapper's script is a build file as build.gradle is
// (runlater.toml lists gradlew and mvnw as build files), and what it
// downloads and runs is named in gradle/wrapper/ and .mvn/, which the coder
// may not write (auto entries). An installed program is what the install
// put there, as the one `npm test` or an activated venv's `pytest` runs.
// A stand-in this line writes is judged on what it writes (writethenrun.go).
//
// Shapes: `./gradlew :app:test --tests …`, `./mvnw -q test` (Android and
// Spring CLAUDE.md files, polcorp7/8), `.venv/bin/pytest tests/unit -x`,
// `vendor/bin/pest --parallel`, `./bin/rubocop -a` (heldout3, polcorp8).

// projectWrapper is the build tool a wrapper script stands in for.
func projectWrapper(base string) (string, bool) {
	switch base {
	case "gradlew":
		return "gradle", true
	case "mvnw":
		return "mvn", true
	}
	return "", false
}

// standInTool is the tool a workspace program stands in for, when it is a
// project wrapper, an installed program or a binstub of a known tool.
func standInTool(c *checkEnv, paths []string, base string) (string, bool) {
	if len(paths) == 0 {
		return "", false
	}
	if tool, ok := projectWrapper(base); ok {
		for _, p := range paths {
			if !within(p, c.ws) || filepath.Base(p) != base || inDependencyTree(rel(p, c.ws)) {
				return "", false
			}
		}
		return tool, true
	}
	if _, known := handlerFor(base); known && (inInstalledBin(c, paths) || binstub(c, paths)) {
		return base, true
	}
	return "", false
}

// inDependencyTree reports whether r (relative to the workspace) is inside
// a package manager's tree or a hidden directory: a dependency's gradlew is
// not the project's.
func inDependencyTree(r string) bool {
	for dir := filepath.Dir(r); dir != "." && dir != "/" && dir != ""; dir = filepath.Dir(dir) {
		b := filepath.Base(dir)
		if b == "node_modules" || b == "vendor" || b[0] == '.' {
			return true
		}
	}
	return false
}
