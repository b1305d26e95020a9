package policy

import "strings"

// Tools whose unknown verbs are the project's own scripts or tasks:
// composer runs a composer.json script by its name (`composer analyse`,
// `composer fix:cs`), mix runs a task of the project or of its
// dependencies (`mix coveralls.html`, `mix sobelow`). Inside the sandbox
// that is the project's code, as `npm run lint` and `yarn lint` are; a
// name that sounds like publishing, and the tools' own commands that
// install globally, change accounts or fetch from elsewhere, go to the
// tool's handler. With the sandbox off nothing here applies.

// composerOwnVerbs and mixOwnVerbs are the tools' built-in commands the verb table leaves to
// their handlers; a verb here is never taken for a project script.
var composerOwnVerbs = wordSet{words: []string{"global", "config", "self-update", "selfupdate", "create-project", "remove", "rm",
	"reinstall", "bump", "archive", "browse", "home", "search", "suggests", "init", "clear-cache", "clearcache",
	"cc", "require", "r", "update", "u", "upgrade", "exec", "run-script", "run", "list", "help", "about"}}

var mixOwnVerbs = wordSet{words: []string{"new", "archive.install", "archive.uninstall", "escript.install", "escript.uninstall",
	"local.hex", "local.rebar", "local.phx", "phx.new", "igniter.install", "igniter.new", "archive.build"}}

// projectScriptVerb finds a project script or task as tool's verb.
func projectScriptVerb(tool string, args []word) (string, []word, bool) {
	var own *wordSet
	switch tool {
	case "composer":
		own = &composerOwnVerbs
	case "mix":
		own = &mixOwnVerbs
	}
	if own == nil || len(args) == 0 || !args[0].static {
		return "", nil, false
	}
	v := args[0].val
	lv := strings.ToLower(v)
	if v == "" || strings.HasPrefix(v, "-") || own.has(lv) || strings.ContainsAny(v, "/\\=") {
		return "", nil, false
	}
	for _, p := range []string{"hex.", "local.", "archive.", "escript."} {
		if tool == "mix" && strings.HasPrefix(lv, p) {
			return "", nil, false
		}
	}
	if publishWord(v) {
		return "", nil, false
	}
	return v, args[1:], true
}
