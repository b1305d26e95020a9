package policy

import (
	"encoding/json"
	"os"
	"strings"
)

// Which npm packages a fetch-and-run knows (issue 32, polcorp7: npx
// prisma, npx drizzle-kit, npx storybook). The policy knows a package when
// nobody has to read new code to trust it: either it is one of the
// ecosystem's usual dev tools (npxDevTools, npxSchemaTools), or the
// project itself declares it. A package named in the package.json of the
// workspace (dependencies, devDependencies, optionalDependencies) at a
// registry version is the project's own chosen dependency, the one
// `npm ci` installs: npx fetching that same name from the registry runs
// the project's tool, not unseen code. A declaration that is not a
// registry version (file:, link:, git, a URL, a github: or user/repo
// spec) is not. fetchRun still asks with the sandbox off or in place.
//
// `npx changeset` is not here: the project's tool is @changesets/cli, and
// the package named changeset is someone else's. With @changesets/cli
// installed, npx runs node_modules/.bin/changeset, the project's copy.

// npxSchemaTools are ORM and UI workshop CLIs whose package and program
// share the name.
var npxSchemaTools = wordSet{words: []string{"prisma", "drizzle-kit", "storybook", "typeorm", "sequelize-cli", "knex", "kysely-codegen"}}

// declaredNpmPackage reports whether the workspace's package.json (in the
// command's directory or the workspace's root) declares pkg at a registry
// version.
func (x *cmdCtx) declaredNpmPackage(pkg string) bool {
	if x.c.ws == "" || x.cw.unknown || x.writtenBefore() {
		return false
	}
	dirs := append([]string{x.c.ws}, x.cw.dirs...)
	for _, d := range dirs {
		f := x.c.canon(rawJoin(d, "package.json"))
		if !within(f, x.c.ws) {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil || len(b) > 1<<20 {
			continue
		}
		var m struct {
			Dependencies         map[string]string `json:"dependencies"`
			DevDependencies      map[string]string `json:"devDependencies"`
			OptionalDependencies map[string]string `json:"optionalDependencies"`
		}
		if json.Unmarshal(b, &m) != nil {
			continue
		}
		for _, deps := range []map[string]string{m.Dependencies, m.DevDependencies, m.OptionalDependencies} {
			if v, ok := deps[pkg]; ok && npmRegistryVersion(v) {
				return true
			}
		}
	}
	return false
}

// npmRegistryVersion: a version or range from the registry (^1.2.3, ~5,
// 1.x, latest, >=2 <3), not a file, link, git, URL or repository spec.
func npmRegistryVersion(v string) bool {
	if v == "" || strings.Contains(v, ":") || strings.Contains(v, "/") {
		return false
	}
	for _, r := range v {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || strings.ContainsRune(".^~*<>=|- ", r)) {
			return false
		}
	}
	return true
}

// schemaToolRemote names the sub-command of an ORM CLI that acts on the
// database its configuration names (DATABASE_URL, often from .env: a
// target nobody on the line has seen, production included): prisma db
// push/pull/execute/seed, migrate deploy/reset/resolve; drizzle-kit
// push/migrate/pull/introspect. "" for the ones that generate, check or
// format files, or migrate the development database (prisma migrate dev).
func schemaToolRemote(tool string, args []word) string {
	var ops []string
	for i := 0; i < len(args) && len(ops) < 2; i++ {
		switch v := args[i].val; {
		case v == "--schema" || v == "--config" || v == "--url" || v == "--file":
			i++ // the option's value, not a sub-command
		case !strings.HasPrefix(v, "-"):
			ops = append(ops, v)
		}
	}
	verb := strings.Join(ops, " ")
	switch tool {
	case "prisma":
		for _, v := range []string{"db push", "db pull", "db execute", "db seed", "migrate deploy", "migrate dev", "migrate reset", "migrate resolve"} {
			if verb == v {
				return v
			}
		}
	case "drizzle-kit":
		if len(ops) > 0 && (ops[0] == "push" || ops[0] == "migrate" || ops[0] == "pull" || ops[0] == "introspect") {
			return ops[0]
		}
	}
	return ""
}

// fetchedProjectTool judges a fetched npm tool's arguments: an ORM CLI's
// sub-command that acts on the configured database asks; the rest is
// the project's tool (projectTool).
func fetchedProjectTool(x *cmdCtx, tool string, args []word) {
	if why := fetchedToolBeyondProject(tool, args); why != "" && (!x.c.sandbox || x.c.inPlace) { // offtools.go
		x.add(Ask, RuleInterpInline, tool+" "+why+", and nothing contains it here")
		return
	}
	// migrate dev applies migrations to the development database (and may
	// reset it): the sandbox's proxy gates where that database is; with
	// the sandbox off or in place it asks as migrate deploy does.
	if v := schemaToolRemote(tool, args); v != "" && (v != "migrate dev" || !x.c.sandbox || x.c.inPlace) {
		x.add(Ask, RuleNetTool, tool+" "+v+" acts on the database its configuration names (DATABASE_URL), which the line does not show")
		return
	}
	if _, ok := taskRunners.get()[tool]; ok {
		// turbo, nx and lerna keep their own table (monorepotasks.go):
		// npx nx release publishes as nx release does.
		taskRunnerCmd(x, append([]word{{val: tool, static: true}}, args...))
		return
	}
	projectTool(x, append([]word{{val: tool, static: true}}, args...))
}
