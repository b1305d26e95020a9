package policy

import (
	"regexp"
	"strings"
)

// Adding a dependency is the ecosystem's install of a manifest change.
// `npm install --save-dev X`, `pnpm add X`, `cargo add X`, `uv add X`,
// `poetry add X`, `go get M@v`, `bundle add X`, `composer require V/P`,
// `dotnet add package X`, `pip install X` write the package's name into the
// manifest and install what the manifest now names: from the ecosystem's
// own registry, through the sandbox's proxy, with its scripts confined like
// the project's own build. So inside the sandbox, in a disposable copy, an
// add of packages named plainly is judged as the manifest install
// (verbManifest) is: allowed; the new name lands in the patch the person
// reviews. It asks with the sandbox off, and in place (the installed code
// would stay in the person's real tree and run later on the host).
//
// Only a plain registry name (with an optional version or extras) counts:
// a URL, a git or file source, a path, an alias, a name the tool would read
// as a repository (npm's user/repo) or a dynamic word goes to the tool's own
// handler, as do options naming another registry, index or source
// (buildArgs).

// addSpecs are, per tool, the spelling of a package a registry serves.
var addSpecs = lazy[map[string]*regexp.Regexp]{build: func() map[string]*regexp.Regexp {
	npm := regexp.MustCompile(`^(@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*(@[A-Za-z0-9.^~<>=*|+ -]+)?$`)
	py := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9._,-]+\])?([<>=!~]=?[A-Za-z0-9.*+!,<>=~-]*)?$`)
	cargo := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*(@[A-Za-z0-9.^~<>=*+-]+)?$`)
	gem := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	return map[string]*regexp.Regexp{
		"npm": npm, "pnpm": npm, "yarn": npm, "bun": npm,
		"pip": py, "pip3": py, "uv": py, "poetry": py,
		"cargo": cargo, "bundle": gem, "dotnet": gem,
		"composer": regexp.MustCompile(`^[a-z0-9]([_.-]?[a-z0-9]+)*/[a-z0-9](([_.]|-{1,2})?[a-z0-9]+)*(:[A-Za-z0-9.^~<>=*|@ ,-]+)?$`),
		"go":       regexp.MustCompile(`^[a-z0-9][a-z0-9.-]*\.[a-z]{2,}(/[A-Za-z0-9._~-]+)*(@[A-Za-z0-9._+-]+)?$`),
	}
}}

// addVerb reports whether verb of tool adds named packages: a verb of the
// add class, or a manifest install given package operands.
func addVerb(tool, verb string, cls verbClass) bool {
	if cls == verbAdd {
		return true
	}
	if cls != verbManifest {
		return false
	}
	switch tool {
	case "npm", "pnpm", "yarn", "bun", "pip", "pip3":
		return verb == "install" || verb == "i" || verb == "add"
	}
	return false
}

// addOperands splits an add's arguments into options, judged by buildArgs
// like every build verb's, and operands, each of which must be a package
// the registry serves (or, for go get, the project's own packages). An
// option's value given as the next word is judged as an operand: a plain
// word passes (--group dev, --features derive), a path or URL does not.
func addOperands(tool string, rest []word) ([]word, bool) {
	spec := addSpecs.get()[tool]
	if spec == nil {
		return nil, false
	}
	var opts []word
	n := 0
	for _, w := range rest {
		if !w.static || w.brace {
			return nil, false
		}
		if strings.HasPrefix(w.val, "-") {
			if npmSaveFlags.has(w.val) && addSpecs.get()["npm"] == spec {
				continue // -D --save-dev, -E --save-exact, -O --save-optional, -P --save-prod
			}
			opts = append(opts, w)
			continue
		}
		n++
		if tool == "go" && (w.val == "./..." || w.val == "." || w.val == "all") {
			continue
		}
		if !spec.MatchString(w.val) {
			return nil, false
		}
	}
	return opts, n > 0
}

// operandList joins the words of an add that are not options.
func operandList(rest []word) string {
	var ops []string
	for _, w := range rest {
		if !strings.HasPrefix(w.val, "-") {
			ops = append(ops, w.val)
		}
	}
	return strings.Join(ops, " ")
}

var npmSaveFlags = wordSet{words: []string{"-D", "-E", "-O", "-P", "-S"}}
