package policy

// `mvn install` with the sandbox off (issue 32, off28): a decision, kept.
//
// install runs every phase `mvn verify` runs (compile, test, package,
// integration tests, checks) and then copies the project's artifacts into
// the person's ~/.m2/repository under the coordinates its pom names. Every
// other Maven or Gradle project on the machine resolves from that
// directory first, so a pom that names an artifact those projects use
// (org.example:shared-lib:1.4.0, or a SNAPSHOT they build against)
// replaces the code they run on their next build: a file that runs code
// later, outside the workspace. Inside the sandbox ~/.m2 is the sandbox's
// own and install is allowed; off it asks, as `gradle publishToMavenLocal`
// does, naming the cost and the everyday form that has none: `mvn verify`
// (allowed off) builds and tests exactly as install does.

const mvnInstallOffReason = "mvn install copies the project's artifacts into ~/.m2/repository, which every other Maven and Gradle project on this machine builds against; `mvn verify` runs the same build and tests without that copy"

// mvnInstallsLocal reports a mvn line whose goals include install (the
// phase, or install:install-file).
func mvnInstallsLocal(args []word) bool {
	if len(args) == 0 || args[0].val != "mvn" {
		return false
	}
	for _, a := range args[1:] {
		if a.val == "install" || a.val == "install:install" || a.val == "install:install-file" {
			return true
		}
	}
	return false
}
