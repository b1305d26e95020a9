package policy

import (
	"regexp"
	"strings"
)

// Session runners (tox, nox) build virtual environments from the
// project's own configuration (tox.ini, noxfile.py), install what it names
// and run its test commands: the manifest install and the project's code,
// like `uv sync && uv run pytest`. Inside the sandbox they are allowed
// when every argument is one that picks sessions, parallelism, verbosity
// or reuse (sessionArgs); a configuration file, a noxfile, an override,
// an index or a package from elsewhere goes to the tool's own handler, and
// with the sandbox off they ask (buildverbs.go verbManifest).

// sessionOptions are, per tool, the options known to only choose among the
// project's own sessions; true when the option takes a value.
var sessionOptions = lazy[map[string]map[string]bool]{build: func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"tox": {"-e": true, "--env": true, "-p": false, "--parallel": false, "-r": false, "--recreate": false, "-q": false,
			"-v": false, "-vv": false, "--quiet": false, "--verbose": false, "--skip-missing-interpreters": false,
			"--parallel-live": false, "-o": false, "--notest": false, "--develop": false, "-m": true, "--labels": true, "-f": true, "--factors": true},
		"nox": {"-s": true, "--session": true, "--sessions": true, "-e": true, "-p": true, "--python": true, "-k": true,
			"--keywords": true, "-t": true, "--tags": true, "-r": false, "-R": false, "--reuse-existing-virtualenvs": false,
			"--no-reuse-existing-virtualenvs": false, "-x": false, "--stop-on-first-error": false, "--no-error-on-missing-interpreters": false,
			"--error-on-missing-interpreters": false, "-v": false, "--verbose": false, "--no-color": false, "--list": false, "-l": false},
	}
}}

// sessionTool reports a session runner, whose first operand is not a verb.
func sessionTool(tool string) bool { return tool == "tox" || tool == "nox" }

// sessionArgs reports whether every argument of a tox or nox line only
// picks the project's own sessions. After "--" the words go to the
// sessions' own commands (pytest's arguments), which the project's
// configuration decides.
func sessionArgs(tool string, rest []word) bool {
	for i := 0; i < len(rest); i++ {
		w := rest[i]
		if !w.static || w.brace {
			return false
		}
		if w.val == "--" {
			return true
		}
		name, _, hasVal := strings.Cut(w.val, "=")
		takes, known := false, false
		for t, opts := range sessionOptions.get() {
			if t != tool {
				continue
			}
			if v, ok := opts[name]; ok {
				takes, known = v, true
			}
		}
		switch {
		case !strings.HasPrefix(w.val, "-"):
			if !plainToken(w.val) {
				return false // a session name, a number of workers, "run"
			}
		case !known:
			return false
		case takes && !hasVal:
			if i+1 >= len(rest) || !rest[i+1].static || !plainToken(rest[i+1].val) {
				return false
			}
			i++
		}
	}
	return true
}

// rustChannel: an official rustup channel, optionally dated, or a
// version (+stable, +nightly-2024-05-01, +1.79.0): never a path.
func rustChannel(v string) bool {
	return rustChannelRE.get().MatchString(v)
}

var rustChannelRE = lazy[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`^(stable|beta|nightly|[0-9]+\.[0-9]+(\.[0-9]+)?)(-[0-9]{4}-[0-9]{2}-[0-9]{2})?$`)
}}

// hasWord reports a static word equal to v.
func hasWord(ws []word, v string) bool {
	for _, w := range ws {
		if w.static && w.val == v {
			return true
		}
	}
	return false
}
