package policy

import "strings"

// Maven goals by class. A lifecycle phase (site, process-resources,
// integration-test) runs the plugins the project's pom binds to it, as
// package does: the project's build. A plugin goal named by prefix
// (prettier:write, assembly:single, exec:exec@ktlint-format) runs a
// plugin the pom configures, or one Maven resolves from its plugin
// groups: code the project chose, fetched like the plugins of package,
// so it runs inside the sandbox only (verbRun). A goal that publishes,
// signs, talks to the SCM or fetches a named artifact stays with mvnCmd,
// which asks or denies; so does a plugin goal given a -D property the
// policy does not know, since plugin goals read their configuration from
// -D (exec.executable, exec.args, artifact, outputDirectory).

// mavenPhases are lifecycle phases besides those of buildVerbs and
// mavenGoals; deploy and install are not here.
var mavenPhases = wordSet{words: []string{"site", "pre-site", "post-site", "pre-clean", "post-clean", "initialize",
	"generate-sources", "process-sources", "generate-resources", "process-resources", "process-classes",
	"generate-test-sources", "process-test-sources", "generate-test-resources", "process-test-resources",
	"process-test-classes", "prepare-package", "pre-integration-test", "integration-test", "post-integration-test"}}

// mavenPluginPrefixesAsked: plugins whose goals sign with the user's
// keys, commit or push to the SCM, copy to remote servers, push images,
// generate projects from remote catalogs or fetch artifacts by name.
var mavenPluginPrefixesAsked = wordSet{words: []string{"gpg", "scm", "wagon", "archetype", "jib", "docker", "dockerfile",
	"dependency", "install", "deploy", "site", "release", "versions", "help", "gitflow", "git-commit-id"}}

// mavenPluginGoal: prefix:goal or prefix:goal@execution, plain words, of
// a plugin that builds, checks, formats or runs the project.
func mavenPluginGoal(v string) bool {
	prefix, goal, ok := strings.Cut(v, ":")
	goal, exec, _ := strings.Cut(goal, "@")
	if !ok || strings.Count(v, ":") != 1 || !plainToken(prefix) || !plainToken(goal) || prefix == "" || goal == "" {
		return false
	}
	if strings.Contains(v, "@") && !plainToken(exec) {
		return false
	}
	return !mavenPluginPrefixesAsked.has(prefix) && !publishWord(v)
}

// mavenPluginProps: the -D properties of a line with a plugin goal are
// all ones that choose tests or skip checks (mavenProps).
func mavenPluginProps(rest []word) bool {
	for _, w := range rest {
		if !strings.HasPrefix(w.val, "-D") {
			continue
		}
		k, val, _ := strings.Cut(strings.TrimPrefix(w.val, "-D"), "=")
		if !mavenProps.has(k) || val != "" && !testPattern(val) {
			return false
		}
	}
	return true
}

// mavenVerbs reads mvn's goals: every operand must be a goal of the table
// or one mavenGoals knows; the class is the strictest of them (a goal
// that needs the sandbox makes the whole line need it).
func mavenVerbs(args []word) (string, []word, verbClass) {
	verbs := buildVerbs.get()["mvn"]
	cls := verbClass(0)
	var goals []string
	var rest []word
	plugin := false
	for i := 0; i < len(args); i++ {
		w := args[i]
		if !w.static {
			return "", nil, 0
		}
		if strings.HasPrefix(w.val, "-") {
			rest = append(rest, w)
			if (w.val == "-f" || w.val == "--file") && i+1 < len(args) {
				// the pom: a path, judged as one (buildArgs reads it)
				i++
				rest[len(rest)-1] = word{val: "--file=" + args[i].val, static: args[i].static}
				continue
			}
			if (w.val == "-pl" || w.val == "--projects" || w.val == "-T" || w.val == "--threads" || w.val == "-rf") && i+1 < len(args) {
				i++
				rest = append(rest, word{val: "-" + strings.TrimLeft(args[i].val, "-"), static: args[i].static})
			}
			continue
		}
		c, ok := verbs[w.val]
		if !ok && (mavenGoals.has(w.val) || mavenPhases.has(w.val)) {
			c, ok = verbProject, true
		}
		if !ok && mavenPluginGoal(w.val) {
			c, ok, plugin = verbRun, true, true
		}
		if !ok {
			return "", nil, 0
		}
		if c > cls {
			cls = c
		}
		goals = append(goals, w.val)
	}
	if plugin && !mavenPluginProps(rest) {
		return "", nil, 0
	}
	if cls == verbRead && len(goals) > 1 {
		cls = verbProject
	}
	return strings.Join(goals, " "), rest, cls
}

// manifestGroupOptions: per tool, the options of a manifest install whose
// value names a group or extra the manifest declares (poetry install
// --with dev, uv sync --group lint) or a setting of the install (bundle
// install -j 4, --retry 3; npm ci --omit dev), not a package.
var manifestGroupOptions = lazy[map[string]map[string]bool]{build: func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"poetry": setOf("--with", "--without", "--only", "-E", "--extras"),
		"uv":     setOf("--extra", "--group", "--only-group", "--no-group", "--package", "--no-extra"),
		"bundle": setOf("-j", "--jobs", "--retry", "--with", "--without"),
		"npm":    setOf("--omit", "--include", "-w", "--workspace"),
		"pnpm":   setOf("--filter", "-F"),
		"mix":    setOf("--only"),
		"pdm":    setOf("-G", "--group", "--without"),
		"pipenv": setOf("--categories"),
	}
}}

// manifestOnly: every operand of a manifest install is an option, the
// value of an option naming a group of the manifest, or (dotnet restore)
// the project or solution file it restores, read as a path.
func manifestOnly(tool string, rest []word) bool {
	groups := manifestGroupOptions.get()[tool]
	for i := 0; i < len(rest); i++ {
		v := rest[i].val
		if strings.HasPrefix(v, "-") {
			if groups[v] && i+1 < len(rest) && plainToken(rest[i+1].val) {
				i++
			}
			continue
		}
		if tool == "dotnet" && dotnetProjectFile(v) {
			continue
		}
		return false
	}
	return true
}

// dotnetProjectFile: a solution or project file of the workspace, by its
// extension (one elsewhere holds MSBuild targets nobody here has seen).
func dotnetProjectFile(v string) bool {
	if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || strings.Contains(v, "..") || strings.ContainsAny(v, "$`") {
		return false
	}
	for _, ext := range []string{".sln", ".slnx", ".slnf", ".csproj", ".fsproj", ".vbproj", ".proj"} {
		if strings.HasSuffix(v, ext) && len(v) > len(ext) {
			return true
		}
	}
	return false
}
