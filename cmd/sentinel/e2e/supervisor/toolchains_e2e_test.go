package supervisor

import (
	"archive/zip"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// A person's machine, as `sentinel run` meets it: a home with their tools
// under it (a version manager's shims, ~/.local/bin, ~/go/bin on PATH), no
// XDG variables set, and credentials beside the tools. Each test below has
// a real project built and tested inside the sandbox by a command coder,
// checked again on a clean copy (--verify) and landed, while the coder's
// attempt to read every planted credential comes to nothing.

// person is one such machine's user.
type person struct {
	root, home string
	path       []string // PATH entries, the person's own first
	extraEnv   []string
	secrets    map[string]string // home-relative credential file → its unique content
}

// personSecrets are the credential files planted in every test home.
var personSecrets = []string{
	".cargo/credentials.toml", ".npmrc", ".pypirc", ".docker/config.json", ".netrc", ".bash_history",
	".ssh/id_ed25519", ".aws/credentials", ".config/gh/hosts.yml",
}

func newPerson(t *testing.T) *person {
	t.Helper()
	root := t.TempDir()
	p := &person{root: root, home: filepath.Join(root, "home"), secrets: map[string]string{}}
	for i, rel := range personSecrets {
		s := "PLANTED-SECRET-" + strings.NewReplacer("/", "-", ".", "").Replace(rel) + "-" + string(rune('a'+i))
		p.secrets[rel] = s
		e2etest.WriteFile(t, filepath.Join(p.home, rel), s+"\n")
	}
	// Their own programs, found through PATH as they have it.
	p.exe(t, ".local/bin/hello-local", "#!/bin/sh\necho local-bin-ok\n")
	p.exe(t, "go/bin/hello-gobin", "#!/bin/sh\necho go-bin-ok\n")
	p.path = []string{filepath.Join(p.home, ".local", "bin"), filepath.Join(p.home, "go", "bin")}
	return p
}

// exe writes an executable script under home.
func (p *person) exe(t *testing.T, rel, body string) string {
	t.Helper()
	path := filepath.Join(p.home, rel)
	e2etest.WriteFile(t, path, body)
	if err := os.Chmod(path, 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// systemPath is the machine's own PATH for tools outside any home: the
// directories holding go, node and git, and the usual system ones. Never a
// PATH entry under the real home of whoever runs the tests.
func systemPath(t *testing.T) []string {
	t.Helper()
	out := []string{}
	for _, tool := range []string{"go", "git", "node"} {
		if p, err := exec.LookPath(tool); err == nil {
			if r, err := filepath.EvalSymlinks(p); err == nil {
				d := filepath.Dir(r)
				if h, _ := os.UserHomeDir(); h != "" && strings.HasPrefix(d, h+"/") {
					continue
				}
				out = append(out, d)
			}
		}
	}
	return append(out, "/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin")
}

// env is the person's environment: the test's, less every variable that
// names a home, a toolchain or a cache, plus theirs.
func (p *person) env(t *testing.T) []string {
	t.Helper()
	drop := []string{"HOME=", "PATH=", "XDG_CONFIG_HOME=", "XDG_CACHE_HOME=", "XDG_DATA_HOME=", "GOPATH=", "GOMODCACHE=",
		"GOCACHE=", "GOFLAGS=", "GOENV=", "GOPROXY=", "GONOSUMDB=", "GOSUMDB=", "PYENV", "RUSTUP", "CARGO_HOME=", "NVM_",
		"VIRTUAL_ENV=", "npm_config_", "NODE_OPTIONS=", "PYTHON", "CI="}
	var out []string
	for _, kv := range os.Environ() {
		keep := true
		for _, d := range drop {
			keep = keep && !strings.HasPrefix(kv, d)
		}
		if keep {
			out = append(out, kv)
		}
	}
	return append(append(out, "HOME="+p.home, "NO_COLOR=1", "GOTOOLCHAIN=local",
		"PATH="+strings.Join(append(append([]string{}, p.path...), systemPath(t)...), ":")), p.extraEnv...)
}

// run is `sentinel run` by this person in project dir.
func (p *person) run(t *testing.T, dir string, args ...string) e2etest.Result {
	t.Helper()
	cmd := exec.Command(e2etest.Bin, args...)
	cmd.Dir = dir
	cmd.Env = p.env(t)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return e2etest.Result{Code: code, Stdout: out.String(), Stderr: errb.String()}
}

// tryCredentials is the coder's attempt at every planted credential: each
// file's content goes to stdout and into the workspace (leak.txt), so a
// readable one would reach the output, the journal and the landed branch.
func (p *person) tryCredentials() string {
	var b strings.Builder
	b.WriteString("for f in")
	for _, rel := range personSecrets {
		b.WriteString(" \"$HOME/" + rel + "\"")
	}
	b.WriteString("; do if cat \"$f\" >>leak.txt 2>/dev/null; then echo \"READ $f\"; cat \"$f\"; else echo \"DENIED $f\"; fi; done; ")
	b.WriteString("cat ~/.ssh/id_ed25519 ~/.aws/credentials 2>&1 | head -c 300; ls -a ~ ~/.ssh ~/.aws ~/.config/gh 2>&1 | head -c 2000; ")
	return b.String()
}

// project is a committed repository holding files.
func (p *person) project(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(p.root, "project")
	for name, body := range files {
		e2etest.WriteFile(t, filepath.Join(dir, name), body)
	}
	e2etest.Git(t, dir, "init", "-q")
	e2etest.Git(t, dir, "add", "-A")
	e2etest.Git(t, dir, "commit", "-qm", "init")
	return dir
}

// landedGreen checks the run built, verified and landed, that the person's
// own PATH resolved inside, that the sandbox line named the toolchains, and
// that no credential reached the output, the journal or the landed branch.
func (p *person) landedGreen(t *testing.T, dir string, res e2etest.Result, toolchains ...string) string {
	t.Helper()
	all := res.Stdout + res.Stderr
	if res.Code != 0 || !strings.Contains(res.Stdout, "verification passed") || !strings.Contains(res.Stdout, "landed on branch") {
		t.Fatalf("the run did not verify and land: exit %d\nstdout:\n%s\nstderr:\n%s", res.Code, res.Stdout, res.Stderr)
	}
	for _, want := range []string{"local-bin-ok", "go-bin-ok"} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("the person's PATH did not resolve inside (%s missing):\n%s", want, res.Stdout)
		}
	}
	var sandboxLine string
	for _, l := range strings.Split(res.Stdout, "\n") {
		if strings.HasPrefix(l, "[SYSTEM] sandbox:") {
			sandboxLine = l
			break
		}
	}
	for _, want := range append([]string{"build caches per project", "credential file(s) hidden", "~/.local/bin"}, toolchains...) {
		if !strings.Contains(sandboxLine, want) {
			t.Errorf("the run's sandbox line does not name %q: %q", want, sandboxLine)
		}
	}
	// Each read was tried: refused, or answered with an empty file laid
	// over the credential (the content checks below decide).
	for rel := range p.secrets {
		f := filepath.Join(p.home, rel)
		if !strings.Contains(res.Stdout, "DENIED "+f) && !strings.Contains(res.Stdout, "READ "+f) {
			t.Errorf("the coder never tried ~/%s:\n%s", rel, res.Stdout)
		}
	}
	branch := e2etest.Git(t, dir, "branch", "--list", "sentinel/*", "--format=%(refname:short)")
	landed := e2etest.Git(t, dir, "log", "-p", "--all", "--format=%H %an %s")
	var journal strings.Builder
	filepath.WalkDir(filepath.Join(dir, ".sentinel"), func(path string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			b, _ := os.ReadFile(path)
			journal.WriteString(path + "\n" + string(b) + "\n")
		}
		return nil
	})
	if !strings.Contains(journal.String(), "events.jsonl") {
		t.Fatalf("no journal under %s", filepath.Join(dir, ".sentinel"))
	}
	for rel, s := range p.secrets {
		for where, text := range map[string]string{"output": all, "landed branch": landed, "journal or workspace": journal.String()} {
			if strings.Contains(text, s) {
				t.Errorf("~/%s was read inside: its content reached the %s", rel, where)
			}
		}
	}
	return branch
}

// The Python project runs through a pyenv-like shim under home: the shim
// reads ~/.pyenv/version and execs that version's python3 (here a link to
// the system's), as pyenv does.
func TestPersonPyenvPythonProjectTestsAndLands(t *testing.T) {
	t.Parallel()
	py, err := filepath.EvalSymlinks("/usr/bin/python3")
	if err != nil {
		t.Skip("no /usr/bin/python3 on this machine")
	}
	p := newPerson(t)
	p.exe(t, ".pyenv/shims/python3", `#!/bin/sh
root="${PYENV_ROOT:-$HOME/.pyenv}"
v="$PYENV_VERSION"; d="$PWD"
while [ -z "$v" ]; do
  [ -f "$d/.python-version" ] && v=$(cat "$d/.python-version")
  [ "$d" = / ] && break
  d=$(dirname "$d")
done
[ -n "$v" ] || v=$(cat "$root/version")
exec "$root/versions/$v/bin/python3" "$@"
`)
	e2etest.WriteFile(t, filepath.Join(p.home, ".pyenv", "version"), "3.99.1\n")
	bin := filepath.Join(p.home, ".pyenv", "versions", "3.99.1", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(py, filepath.Join(bin, "python3")); err != nil {
		t.Fatal(err)
	}
	p.path = append([]string{filepath.Join(p.home, ".pyenv", "shims")}, p.path...)
	dir := p.project(t, map[string]string{
		"calc.py":      "def add(a, b):\n    return a + b\n",
		"test_calc.py": "import unittest\nimport calc\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(calc.add(2, 3), 5)\n",
	})
	script := p.tryCredentials() + `hello-local; hello-gobin; command -v python3
printf 'def add(a, b):\n    return a + b\n\ndef mul(a, b):\n    return a * b\n' > calc.py
printf 'import unittest\nimport calc\n\nclass M(unittest.TestCase):\n    def test_mul(self):\n        self.assertEqual(calc.mul(4, 5), 20)\n' > test_mul.py
python3 -m unittest -v 2>&1 && echo PY-TESTS-OK`
	res := p.run(t, dir, "run", "--plain", "--coder", "command", "--verify", "python3 -m unittest", "add mul", "--", "sh", "-c", script)
	branch := p.landedGreen(t, dir, res, "pyenv")
	if !strings.Contains(res.Stdout, "PY-TESTS-OK") || !strings.Contains(res.Stdout, filepath.Join(p.home, ".pyenv", "shims", "python3")) {
		t.Errorf("python3 inside was not the pyenv shim, or the tests failed:\n%s", res.Stdout)
	}
	if got := e2etest.Git(t, dir, "show", branch+":test_mul.py"); !strings.Contains(got, "test_mul") {
		t.Errorf("landed test_mul.py = %q", got)
	}
	// doctor, in the same home, says what the sandbox shows and hides.
	doc := p.run(t, dir, "doctor")
	for _, want := range []string{"pyenv", filepath.Join(p.home, ".pyenv"), filepath.Join(p.home, ".local", "bin"),
		"GOCACHE", filepath.Join(p.home, ".cache", "sentinel", "projects"), filepath.Join(p.home, ".pypirc"), filepath.Join(p.home, ".npmrc")} {
		if !strings.Contains(doc.Stdout, want) {
			t.Errorf("sentinel doctor does not list %s:\n%s", want, doc.Stdout)
		}
	}
}

// The Node project runs `npm test` with node and npm from an nvm-like
// directory on PATH.
func TestPersonNvmNodeProjectTestsAndLands(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("no node under CI=true")
		}
		t.Skip("no node on this machine")
	}
	node, _ = filepath.EvalSymlinks(node)
	p := newPerson(t)
	nvmBin := ".nvm/versions/node/v99.1.0/bin/"
	p.exe(t, nvmBin+"node", "#!/bin/sh\nexec "+node+" \"$@\"\n")
	if npm, err := exec.LookPath("npm"); err == nil {
		// npm's own script runs under the nvm node (#!/usr/bin/env node).
		p.exe(t, nvmBin+"npm", "#!/bin/sh\nexec "+npm+" \"$@\"\n")
	} else {
		p.exe(t, nvmBin+"npm", "#!/bin/sh\nexec node --test\n")
	}
	e2etest.WriteFile(t, filepath.Join(p.home, ".nvm", "alias", "default"), "v99.1.0\n")
	p.path = append([]string{filepath.Join(p.home, nvmBin)}, p.path...)
	dir := p.project(t, map[string]string{
		"package.json": `{"name":"calc","version":"1.0.0","scripts":{"test":"node --test"}}` + "\n",
		"calc.js":      "exports.add = (a, b) => a + b;\n",
		"test/calc.test.js": "const test = require('node:test');\nconst assert = require('node:assert');\nconst calc = require('../calc');\n" +
			"test('add', () => assert.strictEqual(calc.add(2, 3), 5));\n",
	})
	script := p.tryCredentials() + `hello-local; hello-gobin; command -v node
printf 'exports.add = (a, b) => a + b;\nexports.mul = (a, b) => a * b;\n' > calc.js
printf "const test = require('node:test');\nconst assert = require('node:assert');\nconst calc = require('../calc');\ntest('mul', () => assert.strictEqual(calc.mul(4, 5), 20));\n" > test/mul.test.js
npm test 2>&1 && echo NODE-TESTS-OK`
	res := p.run(t, dir, "run", "--plain", "--coder", "command", "--verify", "npm test", "add mul", "--", "sh", "-c", script)
	branch := p.landedGreen(t, dir, res, "nvm")
	if strings.Contains(res.Stdout, "[APPROVAL] net:") {
		// npm's update check would ask for the registry on every npm test.
		t.Errorf("npm test phoned home from inside the sandbox:\n%s", res.Stdout)
	}
	if !strings.Contains(res.Stdout, "NODE-TESTS-OK") || !strings.Contains(res.Stdout, filepath.Join(p.home, nvmBin, "node")) {
		t.Errorf("node inside was not nvm's, or the tests failed:\n%s", res.Stdout)
	}
	if got := e2etest.Git(t, dir, "show", branch+":test/mul.test.js"); !strings.Contains(got, "mul") {
		t.Errorf("landed test/mul.test.js = %q", got)
	}
}

// cargo runs through a rustup-like proxy in ~/.cargo/bin that picks the
// toolchain from ~/.rustup/settings.toml, while ~/.cargo/credentials.toml,
// in the same directory tree, stays hidden.
func TestPersonRustupCargoRunsAndLands(t *testing.T) {
	t.Parallel()
	p := newPerson(t)
	p.exe(t, ".cargo/bin/cargo", `#!/bin/sh
rh="${RUSTUP_HOME:-$HOME/.rustup}"
tc="$RUSTUP_TOOLCHAIN"
[ -n "$tc" ] || tc=$(sed -n 's/^default_toolchain = "\(.*\)"/\1/p' "$rh/settings.toml")
[ -x "$rh/toolchains/$tc/bin/cargo" ] || { echo "error: toolchain '$tc' is not installed" >&2; exit 1; }
exec "$rh/toolchains/$tc/bin/cargo" "$@"
`)
	e2etest.WriteFile(t, filepath.Join(p.home, ".rustup", "settings.toml"), "version = \"12\"\ndefault_toolchain = \"1.99.0-x86_64-unknown-linux-gnu\"\n")
	p.exe(t, ".rustup/toolchains/1.99.0-x86_64-unknown-linux-gnu/bin/cargo", "#!/bin/sh\necho \"cargo 1.99.0 (fake 2099-01-01)\"\n")
	e2etest.WriteFile(t, filepath.Join(p.home, ".cargo", "registry", "index", "marker"), "registry-ok\n")
	p.path = append([]string{filepath.Join(p.home, ".cargo", "bin")}, p.path...)
	dir := p.project(t, map[string]string{"README.md": "a crate\n"})
	script := p.tryCredentials() + `hello-local; hello-gobin
cat ~/.cargo/registry/index/marker; cargo --version > cargo-version.txt && cat cargo-version.txt`
	res := p.run(t, dir, "run", "--plain", "--coder", "command", "--verify", "cargo --version | grep -q 'cargo 1.99.0'", "cargo version", "--", "sh", "-c", script)
	branch := p.landedGreen(t, dir, res, "rustup", "cargo")
	if !strings.Contains(res.Stdout, "cargo 1.99.0 (fake 2099-01-01)") || !strings.Contains(res.Stdout, "registry-ok") {
		t.Errorf("cargo did not resolve through the rustup-like proxy, or the registry was not readable:\n%s", res.Stdout)
	}
	if got := e2etest.Git(t, dir, "show", branch+":cargo-version.txt"); got != "cargo 1.99.0 (fake 2099-01-01)" {
		t.Errorf("landed cargo-version.txt = %q", got)
	}
}

// The Go module's dependency is already in the person's module cache
// (~/go/pkg/mod, filled outside from a file proxy): `go build` and `go test`
// work inside with nothing fetched, the build cache is the project's own.
func TestPersonGoModuleWithCachedDependencyTestsAndLands(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on this machine")
	}
	if testing.Short() {
		t.Skip("-short: builds and tests a Go module in the sandbox and verifies it with a verification seed")
	}
	p := newPerson(t)
	t.Cleanup(func() { exec.Command("chmod", "-R", "u+w", filepath.Join(p.home, "go")).Run() })
	proxy := filepath.Join(p.root, "goproxy")
	depZip(t, proxy, "example.com/greet", "v1.2.0", map[string]string{
		"go.mod":   "module example.com/greet\n\ngo 1.21\n",
		"greet.go": "package greet\n\nfunc Hello(name string) string { return \"hello, \" + name }\n",
	})
	dir := p.project(t, map[string]string{
		"go.mod":          "module example.com/app\n\ngo 1.21\n\nrequire example.com/greet v1.2.0\n",
		"app.go":          "package app\n\nimport \"example.com/greet\"\n\nfunc Greet() string { return greet.Hello(\"app\") }\n",
		"app_test.go":     "package app\n\nimport \"testing\"\n\nfunc TestGreet(t *testing.T) {\n\tif Greet() != \"hello, app\" {\n\t\tt.Fatal(Greet())\n\t}\n}\n",
		"cmd/app/main.go": "package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/app\"\n)\n\nfunc main() { fmt.Println(app.Greet()) }\n",
	})
	// The person fetched it once, long ago: it is in ~/go/pkg/mod, and
	// go.sum records it.
	fetch := exec.Command("go", "mod", "download", "-x", "example.com/greet")
	fetch.Dir = dir
	fetch.Env = append(p.env(t), "GOPROXY=file://"+proxy, "GOSUMDB=off", "GOFLAGS=-modcacherw")
	if out, err := fetch.CombinedOutput(); err != nil {
		t.Fatalf("go mod download: %v\n%s", err, out)
	}
	tidy := exec.Command("go", "mod", "tidy")
	tidy.Dir = dir
	tidy.Env = append(p.env(t), "GOPROXY=off", "GOFLAGS=-modcacherw")
	if out, err := tidy.CombinedOutput(); err != nil {
		t.Fatalf("go mod tidy: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(p.home, "go", "pkg", "mod", "example.com", "greet@v1.2.0", "greet.go")); err != nil {
		t.Fatalf("the dependency is not in the person's module cache: %v", err)
	}
	e2etest.Git(t, dir, "add", "-A")
	e2etest.Git(t, dir, "commit", "-qm", "go.sum")
	// The compiled standard library is in the person's own build cache, as
	// it is for anyone who has used this Go (the verification seed is built
	// from it), and in the project's (that the coder gets it is not what
	// this test checks): the run still compiles, tests and caches the
	// project's code and its dependency, in the project's own cache.
	e2etest.SeedGoCache(t, filepath.Join(p.home, ".cache", "go-build"))
	e2etest.SeedGoCache(t, e2etest.ProjectGoCache(t, filepath.Join(p.home, ".cache"), dir))
	// The verification seed too is the machine's shared test one (this test
	// is not about building it).
	e2etest.SharedSeedIn(t, filepath.Join(p.home, ".cache"))
	script := p.tryCredentials() + `hello-local; hello-gobin; go env GOCACHE GOMODCACHE
printf 'package app\n\nimport "example.com/greet"\n\nfunc Twice() string { return greet.Hello("a") + greet.Hello("b") }\n' > twice.go
printf 'package app\n\nimport "testing"\n\nfunc TestTwice(t *testing.T) {\n\tif Twice() != "hello, ahello, b" {\n\t\tt.Fatal(Twice())\n\t}\n}\n' > twice_test.go
go build ./... && go test ./... 2>&1 && echo GO-TESTS-OK`
	res := p.run(t, dir, "run", "--plain", "--coder", "command", "--verify", "go test ./...", "add Twice", "--", "sh", "-c", script)
	branch := p.landedGreen(t, dir, res, "go")
	if !strings.Contains(res.Stdout, "GO-TESTS-OK") || !strings.Contains(res.Stdout, filepath.Join(p.home, "go", "pkg", "mod")) {
		t.Errorf("go build and go test did not pass inside with the person's module cache:\n%s", res.Stdout)
	}
	if !strings.Contains(res.Stdout, filepath.Join(p.home, ".cache", "sentinel", "projects")) {
		t.Errorf("GOCACHE inside is not the project's own build cache:\n%s", res.Stdout)
	}
	if strings.Contains(res.Stdout, "[APPROVAL] net:") {
		t.Errorf("the build asked for the network though its dependency is cached:\n%s", res.Stdout)
	}
	if strings.Contains(res.Stdout, "read-only file system") {
		// VCS stamping of cmd/app wrote into the read-only module cache.
		t.Errorf("go wrote into a read-only location inside:\n%s", res.Stdout)
	}
	if got := e2etest.Git(t, dir, "show", branch+":twice.go"); !strings.Contains(got, "Twice") {
		t.Errorf("landed twice.go = %q", got)
	}
}

// depZip writes one module version into a file-based GOPROXY.
func depZip(t *testing.T, proxy, mod, version string, files map[string]string) {
	t.Helper()
	d := filepath.Join(proxy, mod, "@v")
	e2etest.WriteFile(t, filepath.Join(d, "list"), version+"\n")
	e2etest.WriteFile(t, filepath.Join(d, version+".info"), `{"Version":"`+version+`"}`)
	e2etest.WriteFile(t, filepath.Join(d, version+".mod"), files["go.mod"])
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range files {
		w, err := zw.Create(mod + "@" + version + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	e2etest.WriteFile(t, filepath.Join(d, version+".zip"), buf.String())
}
