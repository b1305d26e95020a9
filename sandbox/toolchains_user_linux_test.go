package sandbox

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The per-user install places are readable inside, never writable: a
// `pip install --user` module imports, a gem's and an npm prefix's files
// (the prefix named by ~/.npmrc, which itself stays hidden) read.
func TestUserInstallPlacesReadableInside(t *testing.T) {
	py, err := filepath.EvalSymlinks("/usr/bin/python3")
	if err != nil {
		t.Skip("no /usr/bin/python3 on this machine")
	}
	m := regexp.MustCompile(`python(\d+\.\d+)$`).FindStringSubmatch(py)
	if m == nil {
		t.Skipf("/usr/bin/python3 is %s: no version in its name", py)
	}
	root := t.TempDir()
	home := filepath.Join(root, "home")
	site := filepath.Join(home, ".local", "lib", "python"+m[1], "site-packages")
	mustWrite(t, filepath.Join(site, "mymod.py"), "WHO = 'user-site-ok'\n")
	mustWrite(t, filepath.Join(home, ".gem", "ruby", "3.2.0", "gems", "g-1", "marker"), "gem-ok")
	mustWrite(t, filepath.Join(home, "npmprefix", "lib", "node_modules", "p", "marker"), "npm-prefix-ok")
	mustWrite(t, filepath.Join(home, ".npmrc"), "prefix=~/npmprefix\n//registry.npmjs.org/:_authToken=npm-secret-marker\n")
	ws := filepath.Join(root, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(root, "cache"))
	t.Setenv("PATH", "/usr/bin:/bin")
	script := `python3 -c 'import mymod; print(mymod.WHO)'
cat ` + home + `/.gem/ruby/3.2.0/gems/g-1/marker; echo
cat ` + home + `/npmprefix/lib/node_modules/p/marker; echo
cat ` + home + `/.npmrc 2>/dev/null
touch ` + site + `/written 2>/dev/null && echo site-writable; true`
	for _, mode := range modes(t) {
		// With --agent HOME inside is a per-run home: the user site is
		// still found.
		for _, extra := range [][]string{nil, {"--agent", "codex"}} {
			t.Run(string(mode)+strings.Join(extra, ""), func(t *testing.T) {
				args := append(append([]string{"sandbox", "run", "--sandbox", string(mode), "--workspace", ws}, extra...), "--", "sh", "-c", script)
				out, errOut, code := sentinel(t, "", args...)
				for _, want := range []string{"user-site-ok", "gem-ok", "npm-prefix-ok"} {
					if !strings.Contains(out, want) {
						t.Errorf("%q missing inside (exit %d)\nstdout %s\nstderr %s", want, code, out, errOut)
					}
				}
				for _, bad := range []string{"npm-secret-marker", "site-writable"} {
					if strings.Contains(out, bad) {
						t.Errorf("%q inside: a per-user place is writable or ~/.npmrc readable\n%s", bad, out)
					}
				}
			})
		}
	}
}

// Where a toolchain link leads counts: a link to home or to a credential
// directory is not shown, and the npmrc prefix and GOBIN are found.
func TestDetectToolchainsUserPlacesAndLinkTargets(t *testing.T) {
	home := t.TempDir()
	for _, d := range []string{".ssh", "gobin", "np", ".npm-global", ".local/share/gem", "cr/bin", "pub/lib/python3.77/site-packages", ".local/lib/python3.77/site-packages"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(home, filepath.Join(home, ".cargo")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(home, ".ssh"), filepath.Join(home, ".rustup")); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(home, ".npmrc"), "color=false\nprefix = ${HOME}/np\n")
	pybin := filepath.Join(home, "pybin")
	mustWrite(t, filepath.Join(pybin, "python3.77"), "")
	env := map[string]string{"PATH": pybin, "GOBIN": filepath.Join(home, "gobin"), "GOMODCACHE": filepath.Join(home, "nomod"),
		"CARGO_INSTALL_ROOT": filepath.Join(home, "cr"), "PYTHONUSERBASE": filepath.Join(home, "pub")}
	v := DetectToolchains(home, func(k string) string { return env[k] })
	got := strings.Join(v.Readable(), " ")
	for _, want := range []string{filepath.Join(home, "gobin"), filepath.Join(home, "np"), filepath.Join(home, ".npm-global"),
		filepath.Join(home, ".local/share/gem"), filepath.Join(home, "cr/bin"), filepath.Join(home, "pub/lib/python3.77/site-packages")} {
		if !strings.Contains(got, want) {
			t.Errorf("readable %q, want %s among them", got, want)
		}
	}
	if strings.Contains(got, filepath.Join(home, ".local/lib/python3.77")) {
		t.Errorf("readable %q: with PYTHONUSERBASE set, ~/.local's user site is not Python's", got)
	}
	for _, r := range v.Readable() {
		if r == filepath.Join(home, ".cargo") || r == filepath.Join(home, ".rustup") {
			t.Errorf("%s is shown: it leads to home or a credential directory", r)
		}
	}
}
