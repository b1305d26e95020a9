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

// composerBuiltins are all of composer's own commands and aliases. Composer
// is a Symfony Console application, which runs any unambiguous prefix of a
// command's name (`composer glob require` is `composer global require`,
// `composer self-up` is self-update), matched without case when nothing
// matches with it: a verb that begins one of these is that command, not a
// project script.
var composerBuiltins = []string{"about", "archive", "browse", "home", "bump", "clear-cache", "clearcache", "cc",
	"config", "create-project", "dump-autoload", "dumpautoload", "exec", "global", "help", "init", "install", "i", "list",
	"reinstall", "remove", "rm", "uninstall", "require", "r", "run-script", "run", "search", "self-update", "selfupdate",
	"suggests", "update", "u", "upgrade"}

// Its read-only reports (check-platform-reqs, show, status, validate,
// outdated, audit, licenses, depends, prohibits, diagnose, fund) are left
// out: a script of the same name runs instead of them, and a prefix that
// reaches one of them (composer check) only reads.

// composerBuiltinPrefix reports a verb that composer takes for one of its
// own commands; a namespaced abbreviation (g:req) is judged by its first
// part, so it too is never taken for a script.
func composerBuiltinPrefix(lv string) bool {
	lv, _, _ = strings.Cut(lv, ":")
	for _, b := range composerBuiltins {
		if strings.HasPrefix(b, lv) {
			return true
		}
	}
	return false
}

// Mix runs a task only by its exact name (Mix.Task.run has no
// abbreviations: `mix he` is "task not found"), so mix needs no such check.
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
	if tool == "composer" && composerBuiltinPrefix(lv) {
		return "", nil, false
	}
	if publishWord(v) {
		return "", nil, false
	}
	return v, args[1:], true
}
