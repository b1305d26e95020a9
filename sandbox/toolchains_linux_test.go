package sandbox

import (
	"archive/zip"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeHome builds a developer's home under root: a pyenv-like layout (a
// shim that resolves the version from .python-version and execs
// $PYENV_ROOT/versions/<v>/bin/python3, a link to the system python3), a
// rustup-like one (~/.cargo/bin/cargo reads $RUSTUP_HOME/settings.toml), an
// nvm-like node, and credential files planted beside them. It sets HOME,
// PATH and PYENV_ROOT for the test and returns home and the secret marker.
func fakeHome(t *testing.T, root string) (home, secret string) {
	t.Helper()
	// The system's python, not a version manager's shim from the real PATH.
	py, err := filepath.EvalSymlinks("/usr/bin/python3")
	if err != nil {
		t.Skip("no /usr/bin/python3 on this machine")
	}
	home = filepath.Join(root, "home")
	secret = "toolchain-secret-marker"
	exe := func(path, body string) {
		mustWrite(t, path, body)
		if err := os.Chmod(path, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	pyenv := filepath.Join(home, ".pyenv")
	exe(filepath.Join(pyenv, "shims", "python3"), `#!/bin/sh
v="$PYENV_VERSION"; d="$PWD"
while [ -z "$v" ]; do
  [ -f "$d/.python-version" ] && v=$(cat "$d/.python-version")
  [ "$d" = / ] && break
  d=$(dirname "$d")
done
[ -n "$v" ] || v=$(cat "$PYENV_ROOT/version")
exec "$PYENV_ROOT/versions/$v/bin/python3" "$@"
`)
	mustWrite(t, filepath.Join(pyenv, "version"), "no-such-version\n")
	if err := os.MkdirAll(filepath.Join(pyenv, "versions", "3.99.0", "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(py, filepath.Join(pyenv, "versions", "3.99.0", "bin", "python3")); err != nil {
		t.Fatal(err)
	}
	exe(filepath.Join(home, ".cargo", "bin", "cargo"), `#!/bin/sh
rh="${RUSTUP_HOME:-$HOME/.rustup}"
tc=$(sed -n 's/^default_toolchain = "\(.*\)"/\1/p' "$rh/settings.toml")
exec "$rh/toolchains/$tc/bin/cargo" "$@"
`)
	mustWrite(t, filepath.Join(home, ".rustup", "settings.toml"), "default_toolchain = \"stable-test\"\n")
	exe(filepath.Join(home, ".rustup", "toolchains", "stable-test", "bin", "cargo"), "#!/bin/sh\necho \"cargo 9.9.9 (stable-test)\"\n")
	nodeBin := filepath.Join(home, ".nvm", "versions", "node", "v99.0.0", "bin")
	exe(filepath.Join(nodeBin, "node"), "#!/bin/sh\necho \"v99.0.0 $(cat \"$(dirname \"$0\")/../lib/marker\")\"\n")
	mustWrite(t, filepath.Join(nodeBin, "..", "lib", "marker"), "lib-ok")
	for _, c := range []string{".cargo/credentials.toml", ".npmrc", ".netrc", ".bash_history", ".pypirc",
		".nvm/versions/node/v99.0.0/etc/npmrc", ".gitconfig"} {
		mustWrite(t, filepath.Join(home, c), secret)
	}
	t.Setenv("HOME", home)
	t.Setenv("PYENV_ROOT", pyenv)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(root, "cache"))
	t.Setenv("PATH", strings.Join([]string{filepath.Join(pyenv, "shims"), filepath.Join(home, ".cargo", "bin"), nodeBin, os.Getenv("PATH")}, ":"))
	return home, secret
}

// The person's toolchains are found and run inside, each with its own
// version resolution, while the credentials beside them stay unreadable.
func TestToolchainsRunInsideCredentialsStayHidden(t *testing.T) {
	root := t.TempDir()
	home, secret := fakeHome(t, root)
	ws := filepath.Join(root, "ws")
	mustWrite(t, filepath.Join(ws, ".python-version"), "3.99.0\n")
	script := `python3 -c 'import sys; print("python", sys.version_info[0])'; cargo --version; node -v
for f in ~/.cargo/credentials.toml ~/.npmrc ~/.netrc ~/.bash_history ~/.pypirc ~/.gitconfig ~/.nvm/versions/node/v99.0.0/etc/npmrc; do
  cat "$f" 2>/dev/null
done; true`
	for _, mode := range modes(t) {
		// With --agent the command's HOME inside is a per-run home: the
		// toolchains are still found.
		for _, extra := range [][]string{nil, {"--agent", "codex"}} {
			t.Run(string(mode)+strings.Join(extra, ""), func(t *testing.T) {
				args := append(append([]string{"sandbox", "run", "--sandbox", string(mode), "--workspace", ws}, extra...), "--", "sh", "-c", script)
				out, errOut, code := sentinel(t, "", args...)
				for _, want := range []string{"python 3", "cargo 9.9.9 (stable-test)", "v99.0.0 lib-ok"} {
					if !strings.Contains(out, want) {
						t.Errorf("%q missing: the toolchain did not run inside (exit %d)\nstdout %s\nstderr %s", want, code, out, errOut)
					}
				}
				if strings.Contains(out, secret) {
					t.Errorf("a credential file was readable inside:\n%s", out)
				}
			})
		}
	}
	v := DetectToolchains(home, os.Getenv)
	names := strings.Join(v.Names(), " ")
	for _, want := range []string{"pyenv", "rustup", "cargo", "nvm"} {
		if !strings.Contains(names, want) {
			t.Errorf("DetectToolchains names %q, want %s among them", names, want)
		}
	}
}

// Home itself and the broad XDG directories are never shown whole, even
// when a PATH entry sits directly in them.
func TestDetectToolchainsNeverShowsHome(t *testing.T) {
	home := t.TempDir()
	for _, d := range []string{"bin", ".local/bin", ".ssh/bin"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"PATH": filepath.Join(home, "bin") + ":" + filepath.Join(home, ".local/bin") + ":" + filepath.Join(home, ".ssh/bin"), "GOMODCACHE": "/"}
	v := DetectToolchains(home, func(k string) string { return env[k] })
	for _, tc := range v.Toolchains {
		switch tc.Root {
		case home, filepath.Join(home, ".local"), filepath.Join(home, ".ssh/bin"), "/":
			t.Errorf("shown: %+v", tc)
		}
	}
	got := v.Readable()
	if !strings.Contains(strings.Join(got, " "), filepath.Join(home, ".local/bin")) || !strings.Contains(strings.Join(got, " "), filepath.Join(home, "bin")) {
		t.Errorf("the PATH entries themselves should be shown: %v", got)
	}
}

// A Go module whose dependency is already in the person's module cache
// builds inside with the network off; the build cache is the project's own,
// writable, and another project neither shares nor sees it.
func TestGoBuildsOfflineWithPerProjectCache(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on this machine")
	}
	root := t.TempDir()
	home := filepath.Join(root, "home")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(root, "cache"))
	t.Setenv("GOMODCACHE", "")
	t.Setenv("GOPATH", "")
	t.Setenv("GOFLAGS", "-modcacherw")
	t.Setenv("GOTOOLCHAIN", "local")
	// A file proxy with one module, downloaded into ~/go/pkg/mod outside.
	proxy := filepath.Join(root, "proxy", "example.com", "dep", "@v")
	mustWrite(t, filepath.Join(proxy, "list"), "v1.0.0\n")
	mustWrite(t, filepath.Join(proxy, "v1.0.0.info"), `{"Version":"v1.0.0"}`)
	mustWrite(t, filepath.Join(proxy, "v1.0.0.mod"), "module example.com/dep\n")
	zf, err := os.Create(filepath.Join(proxy, "v1.0.0.zip"))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(zf)
	for name, body := range map[string]string{"go.mod": "module example.com/dep\n", "dep.go": "package dep\n\nfunc Answer() int { return 42 }\n"} {
		w, _ := zw.Create("example.com/dep@v1.0.0/" + name)
		w.Write([]byte(body))
	}
	zw.Close()
	zf.Close()
	project := func(name string) string {
		dir := filepath.Join(root, name)
		mustWrite(t, filepath.Join(dir, "go.mod"), "module example.com/"+name+"\n\ngo 1.21\n\nrequire example.com/dep v1.0.0\n")
		mustWrite(t, filepath.Join(dir, "lib.go"), "package lib\n\nimport \"example.com/dep\"\n\nfunc Twice() int { return 2 * dep.Answer() }\n")
		return dir
	}
	p1, p2 := project("one"), project("two")
	for _, p := range []string{p1, p2} {
		c := exec.Command("go", "mod", "download", "-x")
		c.Dir = p
		c.Env = append(os.Environ(), "GOPROXY=file://"+filepath.Join(root, "proxy"), "GOSUMDB=off", "GONOSUMDB=*")
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("go mod download: %v\n%s", err, out)
		}
		c = exec.Command("go", "mod", "tidy")
		c.Dir = p
		c.Env = append(os.Environ(), "GOPROXY=off", "GOSUMDB=off")
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("go mod tidy: %v\n%s", err, out)
		}
	}
	if _, err := os.Stat(filepath.Join(home, "go", "pkg", "mod", "example.com", "dep@v1.0.0", "dep.go")); err != nil {
		t.Fatalf("the dependency is not in the test module cache: %v", err)
	}
	c1, _ := ProjectCacheDir(p1)
	c2, _ := ProjectCacheDir(p2)
	if c1 == c2 || within(c1, p1) {
		t.Fatalf("project caches %s and %s: want distinct, outside the project", c1, c2)
	}
	for _, mode := range modes(t) {
		t.Run(string(mode), func(t *testing.T) {
			out, errOut, code := sentinel(t, "", "sandbox", "run", "--sandbox", string(mode), "--net", "none", "--workspace", p1,
				"--", "sh", "-c", "go build ./... && echo BUILT; go env GOCACHE")
			if code != 0 || !strings.Contains(out, "BUILT") || !strings.Contains(out, filepath.Join(c1, "go-build")) {
				t.Fatalf("go build inside: exit %d\nstdout %s\nstderr %s", code, out, errOut)
			}
			if ents, _ := os.ReadDir(filepath.Join(c1, "go-build")); len(ents) == 0 {
				t.Errorf("nothing was written to the project's GOCACHE %s", c1)
			}
			out, errOut, code = sentinel(t, "", "sandbox", "run", "--sandbox", string(mode), "--net", "none", "--workspace", p2,
				"--", "sh", "-c", "go env GOCACHE; ls "+filepath.Join(c1, "go-build")+" >/dev/null 2>&1 && echo SEES-OTHER; touch "+filepath.Join(c1, "planted")+" 2>/dev/null && echo WROTE-OTHER; true")
			if !strings.Contains(out, filepath.Join(c2, "go-build")) || strings.Contains(out, "SEES-OTHER") || strings.Contains(out, "WROTE-OTHER") {
				t.Errorf("another project's sandbox: exit %d, stdout %s, stderr %s; want its own GOCACHE and no sight of %s", code, out, errOut, c1)
			}
		})
	}
}

// git inside commits as the person (from their ~/.gitconfig, read outside)
// while the rest of that file, a credential helper, stays hidden.
func TestGitCommitsAsThePerson(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	mustWrite(t, filepath.Join(home, ".gitconfig"), "[user]\n\tname = Pat Person\n\temail = pat@example.com\n[credential]\n\thelper = store --file /secret-store\n")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(root, "cache"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(root, "config"))
	for _, k := range []string{"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_CONFIG_GLOBAL", "EMAIL"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	ws := filepath.Join(root, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	script := `git init -q r && cd r && git commit -q --allow-empty -m x && git log -1 --format='%an <%ae> / %cn <%ce>'
echo "helper=[$(git config --get credential.helper)]"`
	for _, mode := range modes(t) {
		t.Run(string(mode), func(t *testing.T) {
			os.RemoveAll(filepath.Join(ws, "r"))
			out, errOut, code := sentinel(t, "", "sandbox", "run", "--sandbox", string(mode), "--workspace", ws, "--", "sh", "-c", script)
			if code != 0 || !strings.Contains(out, "Pat Person <pat@example.com> / Pat Person <pat@example.com>") {
				t.Errorf("git commit inside: exit %d\nstdout %s\nstderr %s", code, out, errOut)
			}
			if !strings.Contains(out, "helper=[]") {
				t.Errorf("the person's credential helper is visible inside: %s", out)
			}
		})
	}
}

// doctor lists what the sandbox will show (the toolchains, this project's
// caches) and what it hides.
func TestDoctorListsToolchainsCachesAndHidden(t *testing.T) {
	root := t.TempDir()
	home, _ := fakeHome(t, root)
	out, errOut, _ := sentinel(t, "", "doctor", "--json")
	var rep struct {
		View struct {
			Toolchains []Toolchain  `json:"toolchains"`
			Caches     []BuildCache `json:"caches"`
			Hidden     []string     `json:"hidden"`
		} `json:"view"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("doctor --json printed %q (%v); stderr %q", out, err, errOut)
	}
	var names []string
	for _, tc := range rep.View.Toolchains {
		names = append(names, tc.Name+"="+tc.Root)
	}
	for _, want := range []string{"pyenv=" + filepath.Join(home, ".pyenv"), "rustup=" + filepath.Join(home, ".rustup"), "cargo=" + filepath.Join(home, ".cargo"), "nvm="} {
		if !strings.Contains(strings.Join(names, " "), want) {
			t.Errorf("doctor's toolchains %v lack %s", names, want)
		}
	}
	caches := map[string]string{}
	for _, c := range rep.View.Caches {
		caches[c.Env] = c.Dir
	}
	if !strings.HasPrefix(caches["GOCACHE"], filepath.Join(root, "cache", "sentinel", "projects")) || caches["PIP_CACHE_DIR"] == "" || caches["npm_config_cache"] == "" {
		t.Errorf("doctor's caches %v: want GOCACHE, pip and npm under the person's cache dir, per project", caches)
	}
	hidden := strings.Join(rep.View.Hidden, " ")
	for _, want := range []string{".cargo/credentials.toml", ".npmrc", ".netrc", ".bash_history", "etc/npmrc"} {
		if !strings.Contains(hidden, filepath.Join(home, want)) && !strings.Contains(hidden, want) {
			t.Errorf("doctor's hidden list %v lacks %s", rep.View.Hidden, want)
		}
	}
}

// The person's go settings written with `go env -w` live in a file under
// ~/.config that is hidden inside: DetectToolchains reads them there (it
// runs no go: 31.3) and carries the harmless ones in as variables, with VCS
// stamping off (it wrote into the read-only module cache on every build),
// and never a GOPROXY that carries a password.
func TestDetectToolchainsCarriesGoEnvSettings(t *testing.T) {
	home := t.TempDir()
	bin := filepath.Join(t.TempDir(), "bin")
	mustWrite(t, filepath.Join(bin, "go"), "#!/bin/sh\nexit 2\n")
	if err := os.Chmod(filepath.Join(bin, "go"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ proxy, want string }{
		{"https://corp.example/goproxy,direct", "GOPROXY=https://corp.example/goproxy,direct"},
		{"https://user:hunter2@corp.example/goproxy", ""},
	} {
		env := map[string]string{"PATH": bin, "HOME": home}
		mustWrite(t, filepath.Join(home, ".config", "go", "env"), "GOMODCACHE=/nonexistent/mod\nGOFLAGS=-mod=mod\nGOTOOLCHAIN=local\nGOPRIVATE=corp.example/*\nGOPROXY="+tc.proxy+"\n")
		v := DetectToolchains(home, func(k string) string { return env[k] })
		got := strings.Join(v.Env, "\n")
		for _, want := range []string{"GOMODCACHE=/nonexistent/mod", "GOFLAGS=-mod=mod -buildvcs=false", "GOTOOLCHAIN=local", "GOPRIVATE=corp.example/*"} {
			if !strings.Contains(got, want) {
				t.Errorf("Env lacks %s:\n%s", want, got)
			}
		}
		if tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("Env lacks %s:\n%s", tc.want, got)
		}
		if strings.Contains(got, "hunter2") {
			t.Errorf("a GOPROXY with a password went inside:\n%s", got)
		}
	}
	if got := goFlagsInside("-buildvcs=true -x"); got != "-buildvcs=true -x" {
		t.Errorf("goFlagsInside overrode the person's own -buildvcs: %q", got)
	}
}

// TestLinkTargetsFollowsChainsThroughSiblings: a link to a sibling is not
// resolved on its own, yet where a chain of siblings leads is still found.
func TestLinkTargetsFollowsChainsThroughSiblings(t *testing.T) {
	root := t.TempDir()
	bin, far := filepath.Join(root, "bin"), filepath.Join(root, "far", "bin")
	mustWrite(t, filepath.Join(bin, "rustup"), "")
	mustWrite(t, filepath.Join(far, "tool"), "")
	for link, to := range map[string]string{"cargo": "rustup", "chain": "hop", "hop": filepath.Join(far, "tool")} {
		if err := os.Symlink(to, filepath.Join(bin, link)); err != nil {
			t.Fatal(err)
		}
	}
	got := linkTargets(bin)
	if want, _ := filepath.EvalSymlinks(filepath.Join(far, "tool")); len(got) != 1 || got[0] != want {
		t.Fatalf("linkTargets = %v, want only %s", got, want)
	}
}
