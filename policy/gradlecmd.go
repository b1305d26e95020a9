package policy

import "strings"

// gradle on the PATH runs the same build scripts ./gradlew runs: the
// project's build.gradle(.kts) and settings, its own code. Inside the
// sandbox ./gradlew TASK… is allowed as that code (pathProgram), so gradle
// TASK… --tests X -Dk=v is too, rather than asking for every form but the
// plainest (subcommandTool). judgeClasses has already judged what every
// spelling of gradle is judged for (publishing, the wrapper task, unseen
// build files). An option naming another build, init script, settings or
// gradle home, and every form without the sandbox, keep gradle's own
// handler.

// gradlePathOptions are gradle's options whose value is a path.
var gradlePathOptions = wordSet{words: []string{"-I", "--init-script", "-p", "--project-dir", "-c", "--settings-file",
	"-b", "--build-file", "-g", "--gradle-user-home", "--project-cache-dir", "--include-build"}}

// gradleCmd wraps gradle's handler with the sandbox's project-code rule.
func gradleCmd(fallback handler) handler {
	return func(x *cmdCtx, args []word) {
		if !x.c.sandbox || len(args) < 2 {
			fallback(x, args)
			return
		}
		for _, a := range args[1:] {
			name, _, _ := strings.Cut(a.val, "=")
			if !strings.HasPrefix(a.val, "-") && gradleMachineTask(a.val) {
				fallback(x, args) // publish.go judges it; the machine's ~/.m2 is not the sandbox's
				return
			}
			if gradlePathOptions.has(name) {
				// an init script, settings, build file or home from
				// elsewhere is not the project's build: gradle's own
				// handler judges it (it asks)
				fallback(x, args)
				return
			}
		}
		x.sandboxedCode("gradle runs the project's build scripts", RuleBuildOption, "gradle runs the project's build scripts")
		x.inWorkspace()
	}
}

// gradleMachineTask reports a task that publishes (gradlePublishTask) or
// installs into the machine's own repository (publishToMavenLocal and its
// abbreviations, install): neither is the project's build alone.
func gradleMachineTask(t string) bool {
	if gradlePublishTask(t) {
		return true
	}
	if i := strings.LastIndexByte(t, ':'); i >= 0 {
		t = t[i+1:]
	}
	if t == "" {
		return false
	}
	lt := strings.ToLower(t)
	return lt == "install" || strings.HasSuffix(lt, "tomavenlocal") || camelAbbrev(camelSegments(t), []string{"publish", "To", "Maven", "Local"})
}
