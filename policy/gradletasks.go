package policy

import "strings"

// gradle runs the project's own tasks, as make runs the project's own
// targets (makeCmd): a task is named by the project's build files, which
// `gradle build` runs anyway, so any task name is the project's code, with
// the sandbox on or off. What a task line may not do is publish (judgePublish,
// which resolves gradle's camel-case abbreviations), replace the wrapper
// (judgeWrapperTasks), or, through an option, load code or settings from
// elsewhere: an init script (-I), another user home and its init.d (-g,
// -Dgradle.user.home), another JDK or a JVM agent (-Dorg.gradle.java.home,
// -Dorg.gradle.jvmargs=-javaagent:…), a path outside the workspace, or a
// build scan uploaded to a server (--scan). Those go to the earlier
// handler, which asks.
//
// Shapes: `./gradlew :app:testDebugUnitTest --tests 'com.example.FooTest'`,
// `./gradlew clean build -x test --parallel`, `./gradlew -Pci ktlintCheck`,
// `./gradlew -Dorg.gradle.jvmargs=-Xmx2g build`, `./gradlew dependencies
// --configuration runtimeClasspath` (Android and Kotlin CLAUDE.md files and
// agent transcripts: polcorp7/8, heldout2/3).

// gradleFlags are gradle's options that take no value and only change
// logging, scheduling or caching.
var gradleFlags = wordSet{words: []string{"-q", "--quiet", "-i", "--info", "-w", "--warn", "-s", "--stacktrace", "-S",
	"--full-stacktrace", "--no-daemon", "--daemon", "--offline", "--continue", "--parallel", "--no-parallel",
	"--build-cache", "--no-build-cache", "--configuration-cache", "--no-configuration-cache", "--rerun-tasks",
	"--rerun", "--dry-run", "-m", "--no-watch-fs", "--watch-fs", "--profile", "--no-scan",
	"-t", "--continuous", "--no-rebuild", "-a", "--console=plain", "--console=auto", "--console=rich", "--console=verbose",
	"--warning-mode=all", "--warning-mode=summary", "--warning-mode=none", "--warning-mode=fail", "--status", "--stop",
	"--fail-fast", "--all"}}

// gradleValued are gradle's options whose value is a name, a pattern or
// a number (a task to exclude, a test filter, a configuration).
var gradleValued = wordSet{words: []string{"-x", "--exclude-task", "--tests", "--warning-mode", "--console",
	"--max-workers", "--configuration", "--dependency", "--priority", "--task", "--args"}}

// gradlePlaces are gradle's options whose value is a path it reads or
// writes: it must stay in the workspace.
var gradlePlaces = wordSet{words: []string{"-p", "--project-dir", "-b", "--build-file", "-c", "--settings-file",
	"--include-build", "--project-cache-dir"}}

// gradleUnsafeKey names property keys (lower case) that move gradle's
// code, home, JDK or network, or name a path: they ask.
var gradleUnsafeKey = []string{"home", "path", "dir", "class", "agent", "library", "security", "proxy", "host",
	"url", "repo", "init", "file", "jvmargs", "truststore", "keystore"}

// gradleUnsafeKeyName reports a property key (lower case) holding one of
// gradleUnsafeKey. The word "profile" is taken out first (off30:
// spring.profiles.active and -Pprofile=ci asked because "profile" holds
// "file"); what is left is matched as before, so profileFile still asks.
func gradleUnsafeKeyName(lk string) bool {
	lk = strings.ReplaceAll(lk, "profile", "")
	for _, bad := range gradleUnsafeKey {
		if strings.Contains(lk, bad) {
			return true
		}
	}
	return false
}

func gradleTasks(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		places, ok := gradleLine(args[1:])
		if !ok || x.writtenBefore() { // everyday_forms.go: a line that writes and then builds
			prev(x, args)
			return
		}
		x.add(Allow, RuleBuildProject, "gradle runs the project's own tasks")
		x.inWorkspace()
		for _, p := range places {
			x.readStr(p)
		}
	}
}

// gradleLine reads gradle's arguments: every word static, each a task
// name, a known flag, a valued option with a plain value, a place, or a
// plain property. It returns the places named.
func gradleLine(rest []word) ([]string, bool) {
	var places []string
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if !a.static || a.pattern {
			return nil, false
		}
		v := a.val
		name, val, hasVal := strings.Cut(v, "=")
		switch {
		case gradleFlags.has(v):
		case gradleValued.has(v):
			if i+1 >= len(rest) || !rest[i+1].static || strings.HasPrefix(rest[i+1].val, "-") {
				return nil, false
			}
			i++
		case hasVal && strings.HasPrefix(v, "--") && gradleValued.has(name):
		case strings.HasPrefix(v, "-x") && len(v) > 2 && gradleTaskName(v[2:]): // -xlint
		case gradlePlaces.has(v):
			if i+1 >= len(rest) || !rest[i+1].static {
				return nil, false
			}
			i++
			places = append(places, rest[i].val)
		case hasVal && strings.HasPrefix(v, "--") && gradlePlaces.has(name):
			places = append(places, val)
		case strings.HasPrefix(v, "-D") || strings.HasPrefix(v, "-P"):
			if !gradleProperty(v[2:]) {
				return nil, false
			}
		case gradleTaskName(v) && !gradleOutwardTask(v):
		default:
			return nil, false
		}
	}
	return places, true
}

// gradleTaskName: a task or task path (build, :app:testDebugUnitTest).
func gradleTaskName(v string) bool {
	if v == "" || v[0] == '-' {
		return false
	}
	for _, r := range v {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == ':' || r == '_' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}

// gradleProperty: a -D or -P property with a plain value whose key moves
// nothing (ci, log4j2.debug=true, org.gradle.parallel=true), or
// org.gradle.jvmargs of heap and GC settings only.
func gradleProperty(kv string) bool {
	k, v, _ := strings.Cut(kv, "=")
	lk := strings.ToLower(k)
	if lk == "org.gradle.jvmargs" {
		for _, f := range strings.Fields(v) {
			if !javaOption(f) { // envvalue.go: -Xmx2g, never -javaagent
				return false
			}
		}
		return v != ""
	}
	if k == "" || !plainToken(k) || v != "" && !plainToken(v) {
		return false
	}
	if gradleUnsafeKeyName(lk) {
		return false
	}
	for _, o := range jvmLoadingOptions { // jvmoptions.go
		if strings.Contains(lk, strings.TrimPrefix(o, "-")) {
			return false
		}
	}
	return true
}

// gradleOutwardTasks are the verbs of tasks that act beyond the project:
// publishing (to a server or to ~/.m2: publishToMavenLocal), uploading,
// deploying, releasing, installing (installDebug puts the app on a device).
var gradleOutwardTasks = []string{"publish", "upload", "deploy", "release", "install"}

// gradleOutwardTask reports a task whose name, or the camel-case
// abbreviation gradle would resolve (pTML is publishToMavenLocal), begins
// with one of gradleOutwardTasks: it goes to the earlier handler.
func gradleOutwardTask(t string) bool {
	if i := strings.LastIndexByte(t, ':'); i >= 0 {
		t = t[i+1:]
	}
	segs := camelSegments(t) // publish.go
	if len(segs) == 0 {
		return false
	}
	first := strings.ToLower(segs[0])
	for _, o := range gradleOutwardTasks {
		if strings.HasPrefix(o, first) || strings.HasPrefix(strings.ToLower(t), o) {
			return true
		}
	}
	return false
}
