package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// Toolchain is a directory of the person's that the sandbox shows read-only
// so the tools they run outside run inside too: a version manager's root
// (pyenv, rustup, nvm, …), a PATH entry under home, or a dependency store.
type Toolchain struct {
	Name string `json:"name"` // pyenv, rustup, cargo, go, nvm, … or the PATH entry's own name
	Root string `json:"root"` // the directory made readable
	Via  string `json:"via"`  // how it was found: PATH, $PYENV_ROOT, the default location
}

// knownToolchain is a version manager or language home: the variable that
// moves it, where it lives when that is unset (relative to home), and the
// variables its own version resolution reads (paths and version names,
// never secrets: GOPROXY, which may carry a password, stays out).
type knownToolchain struct {
	name, env, def string
	pass           []string
}

var knownToolchains = []knownToolchain{
	{"pyenv", "PYENV_ROOT", ".pyenv", []string{"PYENV_ROOT", "PYENV_VERSION"}},
	{"rustup", "RUSTUP_HOME", ".rustup", []string{"RUSTUP_HOME", "RUSTUP_TOOLCHAIN", "RUSTUP_AUTO_INSTALL"}},
	{"cargo", "CARGO_HOME", ".cargo", []string{"CARGO_HOME"}},
	{"go", "GOPATH", "go", []string{"GOPATH", "GOROOT", "GOMODCACHE", "GOTOOLCHAIN", "GOFLAGS", "GOPRIVATE", "GONOSUMDB", "GONOPROXY"}},
	{"nvm", "NVM_DIR", ".nvm", []string{"NVM_DIR", "NVM_BIN", "NVM_INC"}},
	{"volta", "VOLTA_HOME", ".volta", []string{"VOLTA_HOME"}},
	{"asdf", "ASDF_DATA_DIR", ".asdf", []string{"ASDF_DIR", "ASDF_DATA_DIR"}},
	{"mise", "MISE_DATA_DIR", ".local/share/mise", []string{"MISE_DATA_DIR"}},
	{"sdkman", "SDKMAN_DIR", ".sdkman", []string{"SDKMAN_DIR", "JAVA_HOME"}},
	{"bun", "BUN_INSTALL", ".bun", []string{"BUN_INSTALL"}},
	{"deno", "DENO_INSTALL", ".deno", []string{"DENO_INSTALL"}},
	{"rbenv", "RBENV_ROOT", ".rbenv", []string{"RBENV_ROOT", "RBENV_VERSION"}},
	{"nodenv", "NODENV_ROOT", ".nodenv", []string{"NODENV_ROOT", "NODENV_VERSION"}},
	{"goenv", "GOENV_ROOT", ".goenv", []string{"GOENV_ROOT", "GOENV_VERSION"}},
	{"fnm", "FNM_DIR", ".local/share/fnm", []string{"FNM_DIR"}},
	{"pnpm", "PNPM_HOME", ".local/share/pnpm", []string{"PNPM_HOME"}},
	{"pipx", "PIPX_HOME", ".local/share/pipx", []string{"PIPX_HOME"}},
	{"uv", "UV_PYTHON_INSTALL_DIR", ".local/share/uv", []string{"UV_PYTHON_INSTALL_DIR"}},
	{"jenv", "", ".jenv", nil},
}

// dependencyStores are the download caches the person already has, shown
// read-only so a build with cached dependencies works without the network.
var dependencyStores = []struct{ name, rel string }{
	{"maven", ".m2/repository"},
	{"gradle", ".gradle/caches"},
	{"npm", ".npm/_cacache"},
	{"ivy", ".ivy2/cache"},
}

// versionFiles are the person's global version choices that version
// managers read from home.
// mise's config is left out: its [env] section may hold secrets.
var versionFiles = []string{".tool-versions", ".python-version", ".nvmrc", ".node-version", ".ruby-version"}

// toolchainSecrets are credential files that live beside toolchains and
// package managers, and shell histories, relative to home. Like
// credentialPaths they are hidden whatever else is shown: the credential
// list always wins over a toolchain directory.
var toolchainSecrets = []string{
	".cargo/credentials", ".cargo/credentials.toml",
	".npmrc", ".yarnrc", ".yarnrc.yml", ".pypirc", ".pip/pip.conf", ".config/pip/pip.conf",
	".gem/credentials", ".m2/settings.xml", ".m2/settings-security.xml", ".gradle/gradle.properties",
	".composer/auth.json", ".config/composer/auth.json", ".bundle/config", ".terraform.d/credentials.tfrc.json",
	".vault-token", ".pgpass", ".my.cnf", ".s3cfg", ".boto", ".config/hub", ".config/rclone",
	".gitconfig", ".config/git", ".docker/config.json",
	".bash_history", ".zsh_history", ".zhistory", ".histfile", ".sh_history", ".local/share/fish/fish_history",
	".python_history", ".node_repl_history", ".psql_history", ".mysql_history", ".sqlite_history",
	".rediscli_history", ".lesshst", ".viminfo",
}

// rootSecrets are credential files inside a toolchain's own root (a moved
// CARGO_HOME, a node prefix's global npmrc), as globs relative to it.
var rootSecrets = []string{"credentials", "credentials.toml", "etc/npmrc", "versions/node/*/etc/npmrc", "*/etc/npmrc"}

// ToolchainView is what DetectToolchains found: directories the sandbox
// shows read-only, the variables that pass in, and the credential files
// among them that stay hidden.
type ToolchainView struct {
	Toolchains []Toolchain `json:"toolchains"`
	PassEnv    []string    `json:"pass_env,omitempty"`
	Env        []string    `json:"env,omitempty"` // KEY=VALUE found by asking the tools themselves
	Secrets    []string    `json:"hidden"`        // absolute paths that exist and are hidden
}

// Readable are the directories to show read-only.
func (v ToolchainView) Readable() []string {
	var out []string
	for _, t := range v.Toolchains {
		out = append(out, t.Root)
	}
	return out
}

// Names is a short list for the run's first system line.
func (v ToolchainView) Names() []string {
	var out []string
	for _, t := range v.Toolchains {
		if !slices.Contains(out, t.Name) {
			out = append(out, t.Name)
		}
	}
	return out
}

// DetectToolchains looks at the person's PATH and the toolchains' own
// variables (getenv) to find what under home the sandbox must show for the
// person's tools to run: each PATH entry under home (its install root when
// it is a bin or shims directory), the roots of known version managers,
// what the symlinks on those PATH entries point at, the dependency stores
// and the global version files. Home itself and the broad XDG directories
// are never shown whole; credential locations never at all.
func DetectToolchains(home string, getenv func(string) string) ToolchainView {
	var v ToolchainView
	if home == "" || !filepath.IsAbs(home) {
		return v
	}
	home = filepath.Clean(home)
	homeReal := resolve(home)
	var secretsRoots, secretsReal []string
	for _, c := range append(slices.Clone(credentialPaths), toolchainSecrets...) {
		secretsRoots = append(secretsRoots, filepath.Join(home, c))
	}
	// Where each credential location leads, resolved once per call: every
	// candidate below is checked against all of them, and resolving them
	// again per candidate was most of a run's start (thousands of lstat
	// calls).
	for _, s := range secretsRoots {
		secretsReal = append(secretsReal, resolve(s))
	}
	underHome := func(p string) bool {
		return p != home && p != homeReal && (within(p, home) || within(p, homeReal))
	}
	broad := map[string]bool{}
	for _, b := range []string{"", ".local", ".local/share", ".local/state", ".local/lib", ".config", ".cache", "Library", "Library/Application Support", ".var", ".var/app"} {
		broad[filepath.Join(home, b)] = true
		broad[filepath.Join(homeReal, b)] = true
	}
	acceptable := func(p string) bool {
		if !underHome(p) || broad[p] {
			return false
		}
		// Where a link leads counts too (~/.cargo -> ~ would show home
		// whole, ~/.cargo -> ~/.ssh a credential directory).
		r := resolve(p)
		if broad[r] || within(home, r) || within(homeReal, r) {
			return false
		}
		for i, s := range secretsRoots {
			if within(p, s) || within(r, s) || within(r, secretsReal[i]) {
				return false
			}
		}
		return true
	}
	add := func(name, root, via string) {
		root = filepath.Clean(root)
		if !acceptable(root) {
			return
		}
		if _, err := os.Stat(root); err != nil {
			return
		}
		for _, t := range v.Toolchains {
			if within(root, t.Root) {
				return // already shown
			}
		}
		// A broader root replaces the narrower ones it covers.
		v.Toolchains = slices.DeleteFunc(v.Toolchains, func(t Toolchain) bool { return within(t.Root, root) })
		v.Toolchains = append(v.Toolchains, Toolchain{Name: name, Root: root, Via: via})
	}
	// The known roots first, so a PATH entry inside one is named for it.
	roots := map[string]string{}
	for _, k := range knownToolchains {
		root, via := filepath.Join(home, k.def), "default location"
		if k.env != "" && getenv(k.env) != "" && filepath.IsAbs(getenv(k.env)) {
			root, via = getenv(k.env), "$"+k.env
		}
		roots[k.name] = root
		add(k.name, root, via)
		// Named explicitly, so the tool finds its root even where HOME
		// inside is a per-run home (--agent, the ACP coders).
		if st, err := os.Stat(root); err == nil && st.IsDir() && k.env != "" && getenv(k.env) == "" && acceptable(filepath.Clean(root)) {
			v.Env = append(v.Env, k.env+"="+filepath.Clean(root))
		}
		v.PassEnv = append(v.PassEnv, k.pass...)
		for _, e := range k.pass {
			// A moved GOROOT or JAVA_HOME under home is shown too.
			if val := getenv(e); filepath.IsAbs(val) && e != k.env {
				if st, err := os.Stat(val); err == nil && st.IsDir() {
					add(k.name, val, "$"+e)
				}
			}
		}
	}
	nameFor := func(dir string) string {
		for _, k := range knownToolchains {
			if r := roots[k.name]; within(dir, r) || within(dir, resolve(r)) {
				return k.name
			}
		}
		// Another directory of the person's: named by where it is
		// (~/.local/bin, not "bin").
		for _, h := range []string{home, homeReal} {
			if rel, err := filepath.Rel(h, dir); err == nil && !strings.HasPrefix(rel, "..") {
				return "~/" + rel
			}
		}
		return filepath.Base(dir)
	}
	seenPath := map[string]bool{}
	for _, d := range filepath.SplitList(getenv("PATH")) {
		if !filepath.IsAbs(d) {
			continue
		}
		d = filepath.Clean(d)
		if !underHome(d) || seenPath[d] {
			continue
		}
		seenPath[d] = true
		root := d
		if b := filepath.Base(d); (b == "bin" || b == "shims") && acceptable(filepath.Dir(d)) {
			root = filepath.Dir(d)
		}
		add(nameFor(d), root, "PATH")
		for _, target := range linkTargets(d) {
			if !underHome(target) {
				continue
			}
			prefix := filepath.Dir(target)
			if filepath.Base(prefix) == "bin" && acceptable(filepath.Dir(prefix)) {
				prefix = filepath.Dir(prefix)
			}
			add(nameFor(prefix), prefix, "PATH link")
		}
	}
	// Go's module cache may be moved by `go env -w`, which only go knows.
	// It may live outside home; it is shown wherever it is, unless it is
	// home or holds home.
	gs := goEnv(getenv, append([]string{"GOMODCACHE", "GOFLAGS", "GOPROXY", "GOBIN"}, goSettingsInside...)...)
	if mc := filepath.Clean(gs["GOMODCACHE"]); filepath.IsAbs(mc) && mc != "/" && !within(home, mc) && !within(homeReal, mc) {
		if underHome(mc) {
			add("go modules", mc, "go env GOMODCACHE")
		} else if st, err := os.Stat(mc); err == nil && st.IsDir() {
			v.Toolchains = append(v.Toolchains, Toolchain{Name: "go modules", Root: mc, Via: "go env GOMODCACHE"})
		}
		v.Env = append(v.Env, "GOMODCACHE="+mc)
	}
	if gs["GOMODCACHE"] != "" { // there is a go
		// The person's `go env -w` file is hidden inside (it lives in
		// ~/.config): what it says comes in as variables.
		v.Env = append(v.Env, "GOFLAGS="+goFlagsInside(gs["GOFLAGS"]))
		for _, k := range goSettingsInside {
			if gs[k] != "" {
				v.Env = append(v.Env, k+"="+gs[k])
			}
		}
		if p := gs["GOPROXY"]; p != "" && !strings.Contains(p, "@") {
			v.Env = append(v.Env, "GOPROXY="+p) // never one that carries a password
		}
	}
	for _, s := range dependencyStores {
		add(s.name, filepath.Join(home, s.rel), "dependency store")
	}
	for _, t := range userInstallPlaces(home, getenv, roots["pyenv"], gs["GOBIN"]) {
		add(t.Name, t.Root, t.Via)
	}
	// Python finds its user site from HOME, which inside may be a per-run
	// home (--agent, the ACP coders): the person's base is named. Only on
	// Linux, where ~/.local is Python's own default (macOS's is
	// ~/Library/Python/X.Y).
	if runtime.GOOS == "linux" && getenv("PYTHONUSERBASE") == "" && slices.ContainsFunc(v.Toolchains, func(t Toolchain) bool {
		return t.Name == "python user site" && within(t.Root, filepath.Join(home, ".local"))
	}) {
		v.Env = append(v.Env, "PYTHONUSERBASE="+filepath.Join(home, ".local"))
	}
	v.PassEnv = append(v.PassEnv, "PYTHONUSERBASE") // python inside finds the same user site
	for _, f := range versionFiles {
		add("version choice", filepath.Join(home, f), "global version file")
	}
	// The secrets that exist: the fixed list, and those inside each root.
	for _, s := range secretsRoots {
		if _, err := os.Lstat(s); err == nil {
			v.Secrets = append(v.Secrets, s)
		}
	}
	for _, t := range v.Toolchains {
		for _, g := range rootSecrets {
			m := globUnder(t.Root, g)
			for _, s := range m {
				if !slices.Contains(v.Secrets, s) {
					v.Secrets = append(v.Secrets, s)
				}
			}
		}
	}
	return v
}

// linkTargets are where the symlinks in dir point (a pipx or npm install
// in ~/.local/bin, a version manager's current link), resolved; at most a
// few hundred are looked at.
func linkTargets(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for i, e := range ents {
		if i >= 500 {
			break
		}
		if e.Type()&os.ModeSymlink == 0 {
			continue
		}
		// A link to a sibling (rustup's cargo -> rustup, a dozen of them)
		// leads where the sibling does, and the sibling is looked at
		// itself when it is a link.
		if l, err := os.Readlink(filepath.Join(dir, e.Name())); err == nil && !strings.Contains(l, "/") && l != "." && l != ".." {
			continue
		}
		t, err := filepath.EvalSymlinks(filepath.Join(dir, e.Name()))
		if err != nil || within(t, dir) || within(t, resolve(dir)) {
			continue
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// goEnv is some of go's settings as go would answer them, read from where
// go reads them — the environment first, then the person's `go env -w`
// file, then go's own defaults — without running go: a go found first on
// PATH may be the project's, and a go.mod's toolchain line would make go
// download and start another toolchain, all on the host with the person's
// environment (31.3). With no go on PATH only the environment counts.
// Defaults that go's own GOROOT/go.env sets (GOPROXY, GOTOOLCHAIN) are left
// to the go inside, which reads that file itself.
func goEnv(getenv func(string) string, keys ...string) map[string]string {
	out := map[string]string{}
	for _, k := range keys {
		if v := getenv(k); v != "" {
			out[k] = v
		}
	}
	hasGo := false
	for _, d := range filepath.SplitList(getenv("PATH")) {
		if st, err := os.Stat(filepath.Join(d, "go")); err == nil && !st.IsDir() && filepath.IsAbs(d) {
			hasGo = true
			break
		}
	}
	if !hasGo {
		return out
	}
	file := goEnvFile(getenv)
	for _, k := range keys {
		if _, ok := out[k]; !ok && file[k] != "" {
			out[k] = file[k]
		}
	}
	if out["GOMODCACHE"] == "" && slices.Contains(keys, "GOMODCACHE") {
		gopath := getenv("GOPATH")
		if gopath == "" {
			gopath = file["GOPATH"]
		}
		if gopath == "" && getenv("HOME") != "" {
			gopath = filepath.Join(getenv("HOME"), "go")
		}
		if first := filepath.SplitList(gopath); len(first) > 0 && filepath.IsAbs(first[0]) {
			out["GOMODCACHE"] = filepath.Join(first[0], "pkg", "mod")
		}
	}
	return out
}

// goEnvFile is the person's `go env -w` file (GOENV, else the user config
// directory's go/env), as go reads it: KEY=VALUE lines whose key starts
// with a capital letter; empty when GOENV=off or there is none.
func goEnvFile(getenv func(string) string) map[string]string {
	name := getenv("GOENV")
	if name == "off" {
		return nil
	}
	if name == "" {
		cfg := getenv("XDG_CONFIG_HOME") // os.UserConfigDir, as go asks it
		if runtime.GOOS == "darwin" {
			cfg = filepath.Join(getenv("HOME"), "Library", "Application Support")
		} else if cfg == "" {
			cfg = filepath.Join(getenv("HOME"), ".config")
		}
		name = filepath.Join(cfg, "go", "env")
	}
	b, err := os.ReadFile(name)
	if err != nil || len(b) > 1<<20 {
		return nil
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || line[0] < 'A' || line[0] > 'Z' {
			continue
		}
		if k, v, ok := strings.Cut(line, "="); ok {
			out[k] = strings.TrimRight(v, "\r")
		}
	}
	return out
}

// goSettingsInside are go's settings (from the environment or `go env -w`)
// that carry into the sandbox as they are: names and patterns, no secrets.
var goSettingsInside = []string{"GOTOOLCHAIN", "GOPRIVATE", "GONOPROXY", "GONOSUMDB", "GOINSECURE"}

// goFlagsInside is GOFLAGS for go inside the sandbox: the person's (from
// their environment or `go env -w`, whose file is hidden inside) with VCS
// stamping off. Stamping a main package's build made go write its "stat
// cache" into the read-only module cache ("go: writing stat cache: …
// read-only file system" on every go build) and ran git several times per
// build; a build in a disposable workspace has nothing worth stamping.
// The person's own -buildvcs choice stands.
func goFlagsInside(person string) string {
	if strings.Contains(person, "-buildvcs") {
		return strings.TrimSpace(person)
	}
	return strings.TrimSpace(person + " -buildvcs=false")
}

// quietToolEnv keeps the person's tools from phoning home on their own:
// npm's update check asked for registry.npmjs.org on every `npm test`,
// which became an approval request (or a denial) the coder never meant.
var quietToolEnv = []string{
	"npm_config_update_notifier=false", "NO_UPDATE_NOTIFIER=1",
	"PIP_DISABLE_PIP_VERSION_CHECK=1",
}

// withToolchains shows v's roots read-only, passes its variables and hides
// its secrets (hidden paths are emptied over whatever is shown).
func (p Profile) withToolchains(v ToolchainView) Profile {
	p.Readable = append(p.Readable, v.Readable()...)
	p.PassEnv = append(p.PassEnv, v.PassEnv...)
	p.Env = append(append(p.Env, v.Env...), quietToolEnv...)
	p.Hidden = append(p.Hidden, v.Secrets...)
	return p
}

// Brief names what the sandbox shows and hides in one line.
func (v ToolchainView) Brief() string {
	tc := "no toolchains under home"
	if len(v.Toolchains) > 0 {
		tc = "toolchains " + strings.Join(v.Names(), ", ")
	}
	return fmt.Sprintf("%s (read-only); build caches per project; %d credential file(s) hidden", tc, len(v.Secrets))
}

// GoModCache is where the person's go keeps modules, as go would say,
// without running go (goEnv); empty with no go on PATH.
func GoModCache() string {
	return goEnv(os.Getenv, "GOMODCACHE")["GOMODCACHE"]
}
