package sandbox

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// pythonVersionName is an interpreter's file name that carries its
// version (python3.12, python3.13t).
var pythonVersionName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^python(\d+\.\d+)t?$`) })

// pythonVersions are the X.Y of the Python interpreters on disk: those on
// PATH and in the system's bin directories, and a version manager's
// installs (pyenv's versions/3.12.1). Nothing is run to find them.
func pythonVersions(getenv func(string) string, pyenvRoot string) []string {
	var out []string
	note := func(v string) {
		if v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	for _, d := range append(filepath.SplitList(getenv("PATH")), "/usr/bin", "/usr/local/bin") {
		if !filepath.IsAbs(d) {
			continue
		}
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			if !strings.HasPrefix(e.Name(), "python") {
				continue // most of /usr/bin: no regexp run over each name
			}
			if m := pythonVersionName().FindStringSubmatch(e.Name()); m != nil {
				note(m[1])
			}
		}
	}
	if pyenvRoot != "" {
		ents, _ := os.ReadDir(filepath.Join(pyenvRoot, "versions"))
		for _, e := range ents {
			if f := strings.SplitN(e.Name(), ".", 3); len(f) >= 2 && f[0] != "" && f[1] != "" {
				note(f[0] + "." + strings.TrimRight(f[1], "t"))
			}
		}
	}
	return out
}

// userInstallPlaces are where each language installs for the person alone
// (pip install --user, gem install --user-install, cargo install, go
// install, npm install -g with a home prefix), as each tool computes them
// without running it: the Python user site for every interpreter version
// on disk (PYTHONUSERBASE or ~/.local, lib/pythonX.Y/site-packages; macOS's
// ~/Library/Python/X.Y), the gem user directories, CARGO_INSTALL_ROOT,
// GOBIN, and the npm prefix ($npm_config_prefix, the prefix line of
// ~/.npmrc, or ~/.npm-global). They are candidates: DetectToolchains shows
// those that exist under home, read-only, never a credential location.
func userInstallPlaces(home string, getenv func(string) string, pyenvRoot, goBin string) []Toolchain {
	var out []Toolchain
	put := func(name, root, via string) {
		if filepath.IsAbs(root) {
			out = append(out, Toolchain{Name: name, Root: filepath.Clean(root), Via: via})
		}
	}
	versions := pythonVersions(getenv, pyenvRoot)
	base, via := filepath.Join(home, ".local"), "Python user site"
	if b := getenv("PYTHONUSERBASE"); filepath.IsAbs(b) {
		base, via = b, "$PYTHONUSERBASE"
		put("python user site", filepath.Join(b, "bin"), via)
	}
	for _, v := range versions {
		put("python user site", filepath.Join(base, "lib", "python"+v, "site-packages"), via)
		put("python user site", filepath.Join(base, "lib", "python"+v+"t", "site-packages"), via)
		put("python user site", filepath.Join(home, "Library", "Python", v, "lib", "python", "site-packages"), via)
	}
	put("gem", filepath.Join(home, ".gem", "ruby"), "gem user directory")
	put("gem", filepath.Join(home, ".local", "share", "gem"), "gem user directory")
	if g := getenv("GEM_HOME"); g != "" {
		put("gem", g, "$GEM_HOME")
	}
	if c := getenv("CARGO_INSTALL_ROOT"); c != "" {
		put("cargo", filepath.Join(c, "bin"), "$CARGO_INSTALL_ROOT")
	}
	if goBin != "" {
		put("go", goBin, "GOBIN")
	}
	for _, k := range []string{"npm_config_prefix", "NPM_CONFIG_PREFIX"} {
		if p := getenv(k); p != "" {
			put("npm", p, "$"+k)
		}
	}
	if p := npmrcPrefix(filepath.Join(home, ".npmrc"), home); p != "" {
		put("npm", p, "~/.npmrc prefix")
	}
	put("npm", filepath.Join(home, ".npm-global"), "npm prefix")
	return out
}

// npmrcPrefix is the prefix line of an npmrc ("prefix=~/.npm-global",
// "prefix = ${HOME}/.npm"), with the home written out; "" when there is
// none. The file itself stays hidden inside: only this line is read.
func npmrcPrefix(path, home string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if !ok || strings.TrimSpace(k) != "prefix" {
			continue
		}
		v = strings.Trim(strings.TrimSpace(v), `"'`)
		for _, h := range []string{"${HOME}", "$HOME", "~"} {
			if strings.HasPrefix(v, h+"/") || v == h {
				v = home + strings.TrimPrefix(v, h)
			}
		}
		return v
	}
	return ""
}
