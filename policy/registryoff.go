package policy

import (
	"path/filepath"
	"strings"
)

// Registry reads and downloads with the sandbox off (issue 32, polcorp6
// U5, the lead's decision): `go mod download`, `go mod tidy`,
// `govulncheck`, `cargo fetch|update`, `npm audit`, `pnpm outdated`,
// `dotnet list package --outdated`, `mix hex.outdated` and their kin run
// no package's code, but they reach the network with the person's own
// configuration and tokens (.npmrc, ~/.cargo/credentials, GOPRIVATE and
// .netrc), and a manifest the agent wrote can name any host (a go.mod
// replace, a .npmrc registry). Inside the sandbox the host gate judges
// the host, so they stay allowed; with the sandbox off the policy is the
// only gate, and they ask, however the tool is reached (judgeClasses runs
// on every command, wrappers taken off), except the read-only queries in a
// workspace that does not redirect the registry (registryquery_off.go).

// registryOffVerb is one registry-reaching form of a tool: its
// subcommand words (the first non-option words, in order) and, when not
// empty, the options of which one must be present for it to reach the
// registry (`dotnet list package` reads the project; `--outdated` asks
// NuGet).
type registryOffVerb struct {
	words []string
	opts  []string
}

// registryOffVerbs lists the forms by program.
var registryOffVerbs = lazy[map[string][]registryOffVerb]{build: func() map[string][]registryOffVerb {
	v := func(words string, opts ...string) registryOffVerb {
		return registryOffVerb{words: strings.Fields(words), opts: opts}
	}
	js := []registryOffVerb{v("audit"), v("outdated"), v("view"), v("info"), v("show"), v("search"), v("ping"),
		v("doctor"), v("npm audit"), v("npm info"), v("dist-tag ls"), v("dist-tags ls")}
	return map[string][]registryOffVerb{
		"go":          {v("mod download"), v("mod tidy"), v("list", "-u", "-versions", "-retracted"), v("get")},
		"govulncheck": {v("")},
		"cargo": {v("fetch"), v("update"), v("generate-lockfile"), v("outdated"), v("search"), v("info"), v("upgrade"),
			v("audit")},
		"npm": js, "pnpm": js, "yarn": js,
		"bun":      {v("outdated"), v("audit"), v("pm view"), v("info")},
		"deno":     {v("outdated")},
		"dotnet":   {v("list package", "--outdated", "--vulnerable", "--deprecated"), v("package search"), v("restore")},
		"mix":      {v("hex.outdated"), v("hex.audit"), v("hex.info"), v("hex.search"), v("deps.get"), v("deps.update")},
		"composer": {v("outdated"), v("audit"), v("search"), v("show", "--latest", "-l", "--outdated", "-o", "--available", "-a")},
		"bundle":   {v("outdated")},
		"gem":      {v("outdated"), v("search"), v("list", "--remote", "-r"), v("query", "--remote", "-r"), v("info", "--remote", "-r")},
		"pip":      {v("list", "--outdated", "-o", "--uptodate", "-u"), v("download"), v("index")},
		"pip3":     {v("list", "--outdated", "-o", "--uptodate", "-u"), v("download"), v("index")},
		"uv":       {v("pip list", "--outdated"), v("tree", "--outdated")},
		"poetry":   {v("show", "--outdated", "-o", "--latest", "-l"), v("search")},
	}
}}

// judgeRegistryOff asks for a registry read or download with the
// sandbox off.
func (x *cmdCtx) judgeRegistryOff(args []word) {
	if x.c.sandbox || len(args) == 0 {
		return
	}
	prog := filepath.Base(args[0].val)
	forms := registryOffVerbs.get()[prog]
	if forms == nil {
		return
	}
	var words []string
	opts := map[string]bool{}
	for _, a := range args[1:] {
		if !a.static {
			continue
		}
		if strings.HasPrefix(a.val, "-") {
			name, _, _ := strings.Cut(a.val, "=")
			opts[name] = true
			continue
		}
		words = append(words, a.val)
	}
	for _, f := range forms {
		if !wordsPrefix(words, f.words) {
			continue
		}
		if len(f.opts) > 0 && !anyOf(opts, f.opts) {
			continue
		}
		if len(f.words) == 0 && (opts["-version"] || opts["-h"] || opts["-help"] || opts["--help"]) {
			continue
		}
		what := strings.TrimSpace(prog + " " + strings.Join(f.words, " "))
		if x.registryQueryOff(prog, what, opts) { // registryquery_off.go: no project config redirects it
			return
		}
		x.add(Ask, RuleNetTool, what+" reaches the package registry with the person's own configuration and tokens, and the sandbox is off")
		return
	}
}

// wordsPrefix reports whether want are the first words of have (the
// empty want matches every command).
func wordsPrefix(have, want []string) bool {
	if len(have) < len(want) {
		return false
	}
	for i, w := range want {
		if have[i] != w {
			return false
		}
	}
	return true
}

// anyOf reports whether one of names is in set.
func anyOf(set map[string]bool, names []string) bool {
	for _, n := range names {
		if set[n] {
			return true
		}
	}
	return false
}
