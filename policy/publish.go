package policy

import (
	"path/filepath"
	"strings"
	"unicode"
)

// Publishing is publishing whichever build tool does it and however it is
// spelled: `./gradlew publish` is `gradle publish`, `./mvnw deploy:deploy-file`
// is `mvn deploy`, `npm pu` is `npm publish` (npm takes unique
// abbreviations of its commands) and `gradle pub` is `gradle publish`
// (gradle takes camel-case abbreviations of task names). judgePublish is
// run on every command before its handler, by program name or by the base
// name of a wrapper script the project ships (gradlew, mvnw), which run
// the same tool.
//
// Publishing to the machine's own repository (gradle publishToMavenLocal,
// mvn install) sends nothing out; it is left to the build tool's handler,
// which asks about anything but a plain build and test: it writes ~/.m2,
// which every other project on the machine builds against.

// publishWrappers are the wrapper scripts projects ship for a build tool.
func publishWrapper(base string) (string, bool) {
	switch strings.ToLower(base) {
	case "gradlew", "gradlew.bat":
		return "gradle", true
	case "mvnw", "mvnw.cmd":
		return "mvn", true
	}
	return "", false
}

// publishSeqs are argv token sequences (matched in order, as prefixRules
// are) that publish, per program.
var publishSeqs = lazy[map[string][][]string]{build: func() map[string][][]string {
	return map[string][][]string{
		"poetry":  {{"publish"}},
		"uv":      {{"publish"}},
		"hatch":   {{"publish"}},
		"pdm":     {{"publish"}},
		"flit":    {{"publish"}},
		"twine":   {{"upload"}, {"register"}},
		"dotnet":  {{"nuget", "push"}, {"nuget", "delete"}},
		"nuget":   {{"push"}, {"delete"}},
		"bun":     {{"publish"}},
		"deno":    {{"publish"}},
		"jsr":     {{"publish"}},
		"mix":     {{"hex.publish"}},
		"gem":     {{"push"}, {"yank"}},
		"cargo":   {{"publish"}, {"yank"}, {"owner"}},
		"yarn":    {{"npm", "publish"}, {"publish"}},
		"pnpm":    {{"publish"}},
		"lein":    {{"deploy"}},
		"sbt":     {{"publish"}, {"publishSigned"}, {"+publish"}, {"+publishSigned"}, {"release"}, {"sonatypeBundleRelease"}},
		"vsce":    {{"publish"}},
		"ovsx":    {{"publish"}},
		"swift":   {{"package-registry", "publish"}},
		"helm":    {{"push"}},
		"conan":   {{"upload"}},
		"pod":     {{"trunk", "push"}},
		"rake":    {{"release"}},
		"jfrog":   {{"rt", "upload"}, {"rt", "u"}},
		"dart":    {{"pub", "publish"}},
		"flutter": {{"pub", "publish"}},
		// release tools of the node registry: their purpose is publishing
		"lerna":            {{"publish"}},
		"changeset":        {{"publish"}},
		"semantic-release": {{}},
		"release-it":       {{}},
		"np":               {{}},
	}
}}

// mavenPublishGoals are maven goals and phases that send artifacts or
// tags out.
var mavenPublishGoals = lazy[map[string]bool]{build: func() map[string]bool {
	return setOf("deploy", "site-deploy", "release:perform", "release:prepare", "release:stage",
		"scm:checkin", "scm:tag", "jib:build", "gpg:sign-and-deploy-file", "nexus-staging:release", "nexus-staging:deploy")
}}

// gradlePublishTasks are gradle tasks, besides publish*, that send
// artifacts, plugins or images out.
var gradlePublishTasks = lazy[map[string]bool]{build: func() map[string]bool {
	return setOf("uploadarchives", "bintrayupload", "artifactorypublish", "jib",
		"closeandreleaserepository", "closeandreleasesonatypestagingrepository", "releaserepository",
		"githubrelease", "appdistributionupload", "publishbundle", "publishapk", "publishlisting")
}}

func (x *cmdCtx) judgePublish(args []word) {
	prog := args[0].val
	base := filepath.Base(prog)
	if t, ok := publishWrapper(base); ok {
		prog = t
	} else if strings.ContainsRune(prog, '/') {
		if b, ok := resolvedProgram(prog); ok {
			prog = b
		} else if paths := x.resolve(args[0]); paths != nil && inInstalledBin(x.c, paths) {
			prog = base // node_modules/.bin/lerna is lerna, installed from a registry
		} else if paths != nil && outsideWorkspace(x.c, paths) {
			prog = base // /usr/local/bin/npm, ~/.cargo/bin/cargo: the installed tool, not the project's program
		} else {
			return // the project's own program: judged as such
		}
	}
	if why := publishes(prog, args[1:]); why != "" {
		x.add(Deny, RulePublish, why)
	}
}

// publishes says how prog with args publishes, or "".
func publishes(prog string, args []word) string {
	switch prog {
	case "gradle":
		for _, a := range args {
			if a.static && !strings.HasPrefix(a.val, "-") && gradlePublishTask(a.val) {
				return "gradle " + a.val + " publishes artifacts"
			}
		}
	case "mvn", "mvnd":
		for _, a := range args {
			v := strings.ToLower(a.val)
			if mavenPublishGoals.get()[v] || strings.HasPrefix(v, "deploy:") || strings.HasSuffix(v, ":deploy") ||
				strings.HasSuffix(v, ":deploy-file") || strings.HasPrefix(v, "release:") {
				return "mvn " + a.val + " publishes artifacts"
			}
		}
	case "npm":
		// npm resolves a unique prefix of a command name: `npm pu` publishes.
		for _, a := range args {
			if strings.HasPrefix(a.val, "-") {
				continue
			}
			v := a.val
			if len(v) >= 2 && (strings.HasPrefix("publish", v) || strings.HasPrefix("unpublish", v) && len(v) >= 3) {
				return "npm " + v + " publishes a package"
			}
			break
		}
	}
	for _, seq := range publishSeqs.get()[prog] {
		if subsequence(append([]word{{val: prog, static: true}}, args...), append([]string{prog}, seq...)) {
			return strings.TrimSpace(prog+" "+strings.Join(seq, " ")) + " publishes"
		}
	}
	if why := publishesForm(prog, args); why != "" { // publishtools.go: goreleaser, cargo release -x, gem owner --add
		return why
	}
	return publishVerb(prog, args)
}

// packageTools are build and package tools whose own commands are verbs
// (not file names, not project scripts). Any of them publishes through a
// verb named publish or upload, as one of its first two operands (cabal
// upload, stack upload, opam publish, rebar3 hex publish, nimble publish,
// elm publish, maturin upload, luarocks upload): the class, not a list of
// each tool's spelling. dotnet publish is not among them: it writes a
// local folder.
var packageTools = wordSet{words: []string{"cabal", "stack", "opam", "rebar3", "nimble", "gem", "cargo", "npm", "pnpm", "yarn",
	"bun", "deno", "jsr", "poetry", "uv", "hatch", "pdm", "flit", "twine", "maturin", "mix", "dart", "flutter", "pub", "vsce",
	"ovsx", "swift", "conan", "helm", "pod", "sbt", "lein", "gradle", "mvn", "mvnd", "composer", "dune", "elm", "spago",
	"luarocks", "wasm-pack", "esy", "pipenv", "rye", "hex", "nuget", "julia", "raco", "cpan", "nix", "vcpkg", "xmake", "bazel"}}

// publishVerb says how a package tool publishes through a verb named
// publish or upload (or ending in .publish / :publish), or "".
func publishVerb(prog string, args []word) string {
	if !packageTools.has(prog) {
		return ""
	}
	n := 0
	for _, a := range args {
		if n == 2 {
			break
		}
		v := strings.ToLower(a.val)
		if strings.HasPrefix(v, "-") || strings.Contains(v, "=") {
			continue
		}
		n++
		for _, sep := range []string{".", ":"} {
			if i := strings.LastIndex(v, sep); i >= 0 {
				v = v[i+1:]
			}
		}
		if v == "publish" || v == "upload" {
			return prog + " " + a.val + " publishes"
		}
	}
	return ""
}

// gradlePublishTask reports a task (`publish`, `:lib:publishAllPublicationsToX`,
// or a camel-case abbreviation gradle resolves, `pub`, `pAPTSR`) that
// publishes. publishToMavenLocal and its abbreviations only write the
// machine's own repository; they are not publishing.
func gradlePublishTask(t string) bool {
	if i := strings.LastIndexByte(t, ':'); i >= 0 {
		t = t[i+1:]
	}
	if t == "" {
		return false
	}
	lt := strings.ToLower(t)
	if gradlePublishTasks.get()[lt] {
		return true
	}
	segs := camelSegments(t)
	first := strings.ToLower(segs[0])
	if !strings.HasPrefix(first, "publish") && !strings.HasPrefix("publish", first) {
		return false
	}
	// the machine's own repository: publishToMavenLocal, pTML,
	// publishMavenPublicationToMavenLocal
	if camelAbbrev(segs, []string{"publish", "To", "Maven", "Local"}) || strings.HasSuffix(lt, "tomavenlocal") {
		return false
	}
	// a lone "p" may name many tasks (processResources, projects): only a
	// first part of at least two letters, or one followed by more
	// parts, is taken as publish.
	return len(first) >= 2 || len(segs) > 1
}

// camelSegments splits a gradle task name at its upper-case letters.
func camelSegments(s string) []string {
	var out []string
	start := 0
	for i, r := range s {
		if i > 0 && unicode.IsUpper(r) {
			out = append(out, s[start:i])
			start = i
		}
	}
	return append(out, s[start:])
}

// camelAbbrev reports whether segs abbreviate the name made of full.
func camelAbbrev(segs, full []string) bool {
	if len(segs) != len(full) {
		return false
	}
	for i := range segs {
		if !strings.HasPrefix(strings.ToLower(full[i]), strings.ToLower(segs[i])) {
			return false
		}
	}
	return true
}
