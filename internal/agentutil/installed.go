package agentutil

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// An agent's version is read from its files, never by running it: a
// program found on PATH or in the project (a node_modules/.bin link, a
// cli.js an archive shipped) would otherwise run on the host, outside the
// sandbox, with the person's whole environment (API keys, GH_TOKEN),
// before any protection is up. Running it is the sandbox's job.

// packageLevels bounds how far up from the program InstalledVersion looks
// for its package.json (@scope/pkg/dist/src/cli.js is three levels down).
const packageLevels = 5

// InstalledVersion is the version of the agent program prog (a path, or a
// name looked up on PATH without running anything), from its files: the
// "version" of the package.json of the npm package named one of pkgs that
// prog, after its links, lies in; else a version its file or directory is
// named for (Claude Code's native installer keeps versions/2.1.3,
// Homebrew's Caskroom keeps claude-code/2.1.3/claude). "" when its files do
// not say; where is the file the version came from.
func InstalledVersion(prog string, pkgs ...string) (version, where string) {
	p := prog
	if !strings.Contains(p, "/") {
		lp, err := exec.LookPath(p) // a search of PATH; nothing runs
		if err != nil {
			return "", ""
		}
		p = lp
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	dir := filepath.Dir(p)
	for i := 0; i < packageLevels; i++ {
		if v := packageVersion(filepath.Join(dir, "package.json"), pkgs); v != "" {
			return v, filepath.Join(dir, "package.json")
		}
		up := filepath.Dir(dir)
		if up == dir || filepath.Base(dir) == "node_modules" {
			break
		}
		dir = up
	}
	for _, name := range []string{filepath.Base(p), filepath.Base(filepath.Dir(p))} {
		if v := versionRe().FindString(name); v != "" && v == name {
			return v, p
		}
	}
	return "", ""
}

// packageVersion is the version in the package.json at path when its name
// is one of pkgs.
func packageVersion(path string, pkgs []string) string {
	b, err := os.ReadFile(path)
	if err != nil || len(b) > 1<<20 {
		return ""
	}
	var m struct{ Name, Version string }
	if json.Unmarshal(b, &m) != nil {
		return ""
	}
	for _, p := range pkgs {
		if m.Name == p {
			return FindVersion(m.Version)
		}
	}
	return ""
}
