package policy

import (
	"path/filepath"
	"strings"
)

// Session runners with the sandbox off (issue 32, off26). `tox -e py312`
// and `nox -s tests` run the test sessions the project's own tox.ini or
// noxfile.py defines, installing what those sessions name into .tox/ or
// .nox/: the project's code and its declared dependencies, as `uv run
// pytest` (which syncs the project's environment first) and `make test`
// are, both allowed off. So with the sandbox off a tox or nox line is
// allowed when every argument only picks the project's own sessions
// (sessionArgs: no other configuration, noxfile, override, index or
// package) and, beyond that:
//
//   - no session, label or factor named on the line sounds like
//     installing, publishing or deploying (tox -e release, nox -s
//     publish), as for just recipes and make targets;
//   - the line wrote no file before it (the configuration may be what it
//     wrote);
//   - no file of the workspace redirects the Python package index: pip's
//     own configuration (pip.conf, a virtualenv's pip.conf, uv.toml:
//     registryquery_off.go) or an index, find-links or install command in
//     tox.ini, tox.toml, setup.cfg, pyproject.toml or noxfile.py (tox's
//     indexserver and install_command, PIP_INDEX_URL in setenv, nox's
//     session.install("-i", …)).
//
// Inside the sandbox nothing changes (sessions.go, buildverbs.go).

// sessionIndexTexts are the words of a session configuration that send
// its installs to another index or run another installer.
var sessionIndexTexts = []string{"index_url", "index-url", "indexserver", "install_command", "PIP_INDEX", "PIP_EXTRA_INDEX",
	"PIP_FIND_LINKS", "PIP_CONFIG_FILE", "UV_INDEX", "UV_EXTRA_INDEX", "UV_DEFAULT_INDEX", "find-links", "find_links", "--index", "\"-i\"", "'-i'"}

// sessionConfigFiles are the files tox and nox read their sessions and
// install settings from.
var sessionConfigFiles = []string{"tox.ini", "tox.toml", "setup.cfg", "pyproject.toml", "noxfile.py"}

// sessionRunOff reports whether, with the sandbox off, the tox or nox line
// whose arguments after the program are rest runs only the project's own
// sessions from its own package index (see above).
func (x *cmdCtx) sessionRunOff(tool string, rest []word) bool {
	if x.c.sandbox || !sessionTool(tool) || x.writtenBefore() || x.c.ws == "" || x.cw.unknown || !sessionArgs(tool, rest) {
		return false
	}
	for _, w := range rest {
		if w.val == "--" {
			break
		}
		if low := strings.ToLower(w.val); publishWord(low) || strings.Contains(low, "install") {
			return false
		}
	}
	if x.projectRegistryConfig("pip") || x.projectRegistryConfig("uv") {
		return false
	}
	for _, d := range x.registryDirs() {
		for _, f := range sessionConfigFiles {
			if fileSays(filepath.Join(d, f), sessionIndexTexts) {
				return false
			}
		}
	}
	return true
}
