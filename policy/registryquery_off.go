package policy

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// Registry queries with the sandbox off (issue 32, off24). The read-only
// forms of registryOffVerbs (`npm outdated`, `pip list --outdated`,
// `cargo audit`, `composer audit`, `bundle outdated`, `dotnet list package
// --vulnerable`, `mix hex.outdated`, `govulncheck`) download no package
// and run no package's code: they send the project's dependency names to
// the registry the person uses every day, with the person's own
// configuration, and print what is newer or vulnerable. A person at their
// own terminal runs them without a second thought, so with the sandbox off
// they are allowed, under three conditions, each of which otherwise asks:
//
//   - no project-level configuration redirects the registry: a file of
//     the workspace (a .npmrc, pip.conf, .cargo/config.toml, NuGet.config,
//     .bundle/config, composer.json `repositories`, a Gemfile source that
//     is not rubygems.org…, found in the working directory, its parents up
//     to the workspace, or the workspace's root) can point the tool, and
//     the person's tokens for it, at a host the agent chose; the person's
//     own files in their home are the person's choice and are not looked
//     at. The files are read when the line is judged, as other rules read
//     the workspace (npxdeclared.go);
//   - the line wrote no file before it (it may have written that
//     configuration), and the working directory is known;
//   - no environment prefix (`npm_config_registry=… npm outdated`,
//     `GOFLAGS=… govulncheck`) and no option naming a registry, source,
//     index, mirror or configuration file is on the command.
//
// The downloading forms (go mod download/tidy, cargo fetch/update,
// pip download, dotnet restore, mix deps.get) still ask off: they put
// code on disk that a later build runs.

// registryQueryForms marks the read-only forms of registryOffVerbs by
// program: the first subcommand words (joined by a space; "" for the
// program alone).
var registryQueryForms = lazy[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"npm": {"audit", "outdated", "view", "info", "show", "search", "ping"}, "pnpm": {"audit", "outdated", "view", "info", "search"},
		"yarn": {"audit", "outdated", "info", "npm audit", "npm info"}, "bun": {"outdated", "audit", "pm view", "info"},
		"deno": {"outdated"}, "govulncheck": {""}, "go": {"list"}, "cargo": {"audit", "outdated", "search", "info"},
		"dotnet": {"list package", "package search"}, "mix": {"hex.outdated", "hex.audit", "hex.info", "hex.search"},
		"composer": {"outdated", "audit", "search", "show"}, "bundle": {"outdated"}, "gem": {"outdated", "search", "list", "query", "info"},
		"pip": {"list", "index"}, "pip3": {"list", "index"}, "uv": {"pip list", "tree"}, "poetry": {"show", "search"},
	}
}}

// registryConfigFiles are the project-level files that redirect each
// program's registry, relative to a directory of the workspace.
var registryConfigFiles = lazy[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"npm": {".npmrc"}, "pnpm": {".npmrc", ".pnpmfile.cjs"}, "yarn": {".npmrc", ".yarnrc", ".yarnrc.yml"},
		"bun": {".npmrc", "bunfig.toml"}, "deno": {".npmrc"},
		"cargo":  {".cargo/config", ".cargo/config.toml", ".cargo/audit.toml", "audit.toml"},
		"dotnet": {"nuget.config", "NuGet.config", "NuGet.Config", "packages.config"},
		"bundle": {".bundle/config"}, "gem": {".gemrc"},
		"pip": {"pip.conf", "pip.ini"}, "pip3": {"pip.conf", "pip.ini"},
		"uv": {"uv.toml"}, "poetry": {"poetry.toml"},
	}
}}

// registryManifestSays names, per program, a manifest of the workspace
// and the texts in it that redirect the registry or name a private one.
type manifestSays struct {
	file  string
	texts []string
}

var registryManifestSays = lazy[map[string]manifestSays]{build: func() map[string]manifestSays {
	return map[string]manifestSays{
		"pnpm":   {"pnpm-workspace.yaml", []string{"registr"}},
		"uv":     {"pyproject.toml", []string{"index", "find-links"}},
		"poetry": {"pyproject.toml", []string{"tool.poetry.source"}},
		"mix":    {"mix.exs", []string{"organization:", "repo:"}},
		"bundle": {"Gemfile", []string{"git_source"}},
	}
}}

// registryQueryOff reports whether the registry form what of prog, with
// the subcommand words and options opts, is a read-only query allowed with
// the sandbox off (see above).
func (x *cmdCtx) registryQueryOff(prog, what string, opts map[string]bool) bool {
	if !registryQueryForm(prog, what) || !x.registryUnredirected(prog) {
		return false
	}
	for o := range opts {
		if o == "-C" || o == "-modfile" {
			return false // go: another module, another go.mod
		}
		low := strings.ToLower(o)
		for _, w := range []string{"registry", "source", "index", "mirror", "config", "repo", "proxy", "cert", "insecure"} {
			if strings.Contains(low, w) {
				return false
			}
		}
	}
	return true
}

// registryUnredirected reports whether, with the sandbox off, prog reaches
// the person's own registry as configured outside the workspace: the line
// wrote nothing before, sets no environment, runs in a known directory,
// and no project-level file redirects the registry.
func (x *cmdCtx) registryUnredirected(prog string) bool {
	if x.c.sandbox || x.part == nil || x.c.inPlace || x.c.ws == "" || x.cw.unknown || x.writtenBefore() || len(x.part.Assigns) > 0 {
		return false
	}
	return !x.projectRegistryConfig(prog)
}

// registryReadOff allows with the sandbox off a registry read a handler
// has found (registryRead, cargoAudit) when registryUnredirected; it
// reports whether it did.
func (x *cmdCtx) registryReadOff(prog, what string) bool {
	if !x.registryUnredirected(prog) {
		return false
	}
	x.add(Allow, RuleNetTool, what+" reads the person's own package registry, and no file of the workspace redirects it (--sandbox off)")
	return true
}

func registryQueryForm(prog, what string) bool {
	for _, f := range registryQueryForms.get()[prog] {
		if what == strings.TrimSpace(prog+" "+f) {
			return true
		}
	}
	return false
}

// projectRegistryConfig reports whether a directory of the workspace the
// command may run in (or one between it and the workspace's root) holds a
// configuration that redirects prog's registry.
func (x *cmdCtx) projectRegistryConfig(prog string) bool {
	for _, d := range x.registryDirs() {
		for _, f := range registryConfigFiles.get()[prog] {
			if _, err := os.Lstat(filepath.Join(d, f)); err == nil {
				return true
			}
		}
		if (prog == "pip" || prog == "pip3") && venvPipConf(d) {
			return true
		}
		if m, ok := registryManifestSays.get()[prog]; ok && fileSays(filepath.Join(d, m.file), m.texts) {
			return true
		}
		switch prog {
		case "composer":
			if composerRedirects(filepath.Join(d, "composer.json")) {
				return true
			}
		case "bundle":
			if gemfileOtherSource(filepath.Join(d, "Gemfile")) {
				return true
			}
		}
	}
	return false
}

// registryDirs are the working directories the command may run in and
// their parents up to the workspace's root, the root included.
func (x *cmdCtx) registryDirs() []string {
	ws := x.c.canon(x.c.ws)
	seen := map[string]bool{}
	var out []string
	for _, d := range append([]string{ws}, x.cw.dirs...) {
		for d = x.c.canon(d); within(d, ws) && !seen[d]; d = filepath.Dir(d) {
			seen[d] = true
			out = append(out, d)
			if d == ws {
				break
			}
		}
	}
	return out
}

// venvPipConf: a virtual environment's pip.conf below d (.venv/pip.conf),
// which pip reads when that environment is the one running.
func venvPipConf(d string) bool {
	for _, pat := range []string{"*/pip.conf", "*/pip.ini"} {
		if m, _ := filepath.Glob(filepath.Join(d, pat)); len(m) > 0 {
			return true
		}
	}
	return false
}

// fileSays reports whether the file at p holds one of texts; a file too
// large to read says anything.
func fileSays(p string, texts []string) bool {
	b, err := os.ReadFile(p)
	if err != nil {
		return false
	}
	if len(b) > 1<<20 {
		return true
	}
	for _, t := range texts {
		if strings.Contains(string(b), t) {
			return true
		}
	}
	return false
}

// composerRedirects: composer.json names repositories of its own or
// loosens how composer reaches them; one that cannot be read as JSON
// counts as redirecting.
func composerRedirects(p string) bool {
	b, err := os.ReadFile(p)
	if err != nil {
		return false
	}
	var m struct {
		Repositories json.RawMessage            `json:"repositories"`
		Config       map[string]json.RawMessage `json:"config"`
	}
	if len(b) > 1<<20 || json.Unmarshal(b, &m) != nil {
		return true
	}
	if len(m.Repositories) > 0 && string(m.Repositories) != "null" && string(m.Repositories) != "[]" && string(m.Repositories) != "{}" {
		return true
	}
	for k := range m.Config {
		if strings.Contains(k, "secure-http") || strings.Contains(k, "tls") || strings.Contains(k, "cafile") || strings.Contains(k, "domains") {
			return true
		}
	}
	return false
}

// gemfileOtherSource: the Gemfile names a source other than rubygems.org.
func gemfileOtherSource(p string) bool {
	b, err := os.ReadFile(p)
	if err != nil {
		return false
	}
	if len(b) > 1<<20 {
		return true
	}
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		rest, ok := strings.CutPrefix(l, "source")
		if !ok || rest == "" || rest[0] != ' ' && rest[0] != '(' {
			continue
		}
		src := strings.Trim(strings.TrimSpace(strings.TrimPrefix(rest, "(")), `"'() `)
		if i := strings.IndexAny(src, `"' `); i >= 0 {
			src = src[:i]
		}
		if src != "https://rubygems.org" && src != "https://rubygems.org/" {
			return true
		}
	}
	return false
}
