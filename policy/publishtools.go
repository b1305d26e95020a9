package policy

import "strings"

// Release tools and publishing commands whose form is more than a verb
// (issue 32, polcorp6 probe/publish-module and deny/publish): goreleaser
// releases unless told to make a snapshot or skip publishing; cargo
// release publishes with --execute (without it, it only shows what it
// would do); rake release and its release:* steps push the gem; gem owner
// --add/--remove change who may publish; mix hex.retire and hex.owner
// change a published package; xcrun altool --upload-app and
// --upload-package upload a build to the App Store; gh release
// create/upload/edit/delete publish or change a release.

// publishesForm says how prog with args publishes through one of the
// forms above, or "".
func publishesForm(prog string, args []word) string {
	switch prog {
	case "goreleaser", "cargo", "rake", "gem", "mix", "xcrun", "gh":
	default:
		return "" // every command comes here: nothing allocated for the rest
	}
	ops := operandVals(args)
	has := func(opts ...string) bool {
		for _, a := range args {
			name, _, _ := strings.Cut(a.val, "=")
			for _, o := range opts {
				if name == o {
					return true
				}
			}
		}
		return false
	}
	first := ""
	if len(ops) > 0 {
		first = ops[0]
	}
	switch prog {
	case "goreleaser":
		if (first == "" || first == "release") && !has("--snapshot", "--skip-publish", "--help", "-h", "--version", "-v") &&
			!skipsPublish(args) {
			return "goreleaser release publishes a release"
		}
	case "cargo":
		if first == "release" && has("-x", "--execute") {
			return "cargo release --execute publishes the crate"
		}
	case "rake":
		for _, t := range ops {
			if t == "release" || strings.HasPrefix(t, "release:") {
				return "rake " + t + " pushes the gem"
			}
		}
	case "gem":
		if first == "owner" && has("-a", "--add", "-r", "--remove") {
			return "gem owner changes who may publish the gem"
		}
	case "mix":
		if first == "hex.retire" || first == "hex.owner" && len(ops) > 1 && ops[1] != "list" {
			return "mix " + first + " changes a published package"
		}
	case "xcrun":
		if first == "altool" && has("--upload-app", "--upload-package") {
			return "xcrun altool uploads a build to the App Store"
		}
	case "gh":
		if first == "release" && len(ops) > 1 {
			switch ops[1] {
			case "create", "upload", "edit", "delete", "delete-asset":
				return "gh release " + ops[1] + " publishes or changes a release"
			}
		}
	}
	return ""
}

// skipsPublish: goreleaser --skip=publish (or a list holding it).
func skipsPublish(args []word) bool {
	for i, a := range args {
		v := a.val
		if v == "--skip" && i+1 < len(args) {
			v = "--skip=" + args[i+1].val
		}
		if s, ok := strings.CutPrefix(v, "--skip="); ok {
			for _, p := range strings.Split(s, ",") {
				if p == "publish" {
					return true
				}
			}
		}
	}
	return false
}

// operandVals are the words of args that are not options. A value an
// option takes in the next word is taken for an operand: the forms above
// name their verbs before such options.
func operandVals(args []word) []string {
	var out []string
	for _, a := range args {
		if !strings.HasPrefix(a.val, "-") {
			out = append(out, a.val)
		}
	}
	return out
}

// outsideWorkspace reports whether every path lies outside the workspace:
// a program there is an installed tool (/usr/local/bin/npm), not one the
// project ships.
func outsideWorkspace(c *checkEnv, paths []string) bool {
	for _, p := range paths {
		if c.ws == "" || within(p, c.ws) {
			return false
		}
	}
	return true
}
