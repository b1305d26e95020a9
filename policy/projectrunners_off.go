package policy

import (
	"path/filepath"
	"strings"
)

// Project code runners with the sandbox off (issue 32, off24), the same
// class as `make test` (offcode.go): each runs code the project holds,
// and nothing fetched for the occasion.
//
//   - `go generate ./...` runs the //go:generate lines of the project's
//     own .go files (a line that wrote a .go file first is judged by
//     ranBuildFiles, and asks);
//   - `npm pack --dry-run`, `npm publish --dry-run`, `deno publish
//     --dry-run` run the project's packing scripts and upload nothing
//     (dryrun.go);
//   - `turbo run test`, `nx run-many`, `lerna run` run the packages' own
//     scripts, with the same checks as inside the sandbox (no remote cache
//     option, no task of the runner's own such as login or link);
//   - `mvn exec:java -Dexec.mainClass=C` runs a main class of the project
//     (mvnexec.go; still not in place);
//   - `bin/rails zeitwerk:check` loads the application's code; `bin/rails
//     db:migrate`, `db:migrate:status` and `db:prepare` run the
//     project's migrations on the database config/database.yml
//     names for the environment, as `rails test` does;
//   - `mix ecto.create|ecto.setup` create and migrate the database of a
//     test or development MIX_ENV (ecto.reset and ecto.drop drop it, and
//     ask off as the lead decided for polcorp9's `MIX_ENV=test mix
//     ecto.drop`: config/test.exs may name a shared server);
//
// What still asks: a production or staging environment (RAILS_ENV,
// RACK_ENV or MIX_ENV other than test/development, a DATABASE_URL on the
// line, which may name any server), rails runner and console (inline code
// beyond the project's), db:rollback, db:reset, db:drop, db:seed,
// db:schema:load and db:test:prepare (they drop or purge a database),
// ecto.reset and ecto.drop, a remote cache the workspace configures for
// turbo or nx (.turbo/config.json, nx.json's Nx Cloud token: the outputs
// go to a service), and any of these after the line wrote a file.

// projectCode allows what (the project's own code) inside the sandbox as
// sandboxedCode does, and with the sandbox off unless the line wrote a
// file before it (offReason, under rule, asks then).
func (x *cmdCtx) projectCode(what, rule, offReason string) {
	if x.c.sandbox {
		x.sandboxedCode(what, rule, offReason)
		return
	}
	if x.writtenBefore() {
		x.add(Ask, rule, offReason+", after the line wrote a file")
		return
	}
	x.add(Allow, RuleSandboxCode, what+", as `make test` runs the project's code (--sandbox off)")
}

// railsOffTasks are the rails tasks of the project's own code allowed
// with the sandbox off in a test or development environment.
var railsOffTasks = wordSet{words: []string{"zeitwerk:check", "db:migrate", "db:migrate:status", "db:prepare", "db:version"}}

// railsProjectTask judges `rails TASK [NAME=VALUE…]` for railsOffTasks; it
// reports whether it did.
func railsProjectTask(x *cmdCtx, task string, rest []word) bool {
	if !railsOffTasks.has(task) || x.writtenBefore() || !devEnvAssigns(x, "RAILS_ENV", "RACK_ENV") {
		return false
	}
	for _, a := range rest {
		k, v, ok := strings.Cut(a.val, "=")
		if !a.static || !ok || (k != "RAILS_ENV" && k != "RACK_ENV") || !devEnv(v) {
			return false // another argument, VERSION=, a variable
		}
	}
	where := "inside the sandbox"
	if !x.c.sandbox {
		where = "as `rails test` does (--sandbox off)"
	}
	x.add(Allow, RuleSandboxCode, "rails "+task+" runs the project's own code and migrations on its test or development database, "+where)
	x.inWorkspace()
	return true
}

// devEnvAssigns reports whether the line's environment prefix sets each
// of names, if at all, to a test or development environment, and sets no
// DATABASE_URL.
func devEnvAssigns(x *cmdCtx, names ...string) bool {
	if x.part == nil {
		return true
	}
	for _, as := range x.part.Assigns {
		k, v, _ := strings.Cut(as, "=")
		if strings.Contains(k, "DATABASE_URL") {
			return false
		}
		for _, n := range names {
			if k == n && !devEnv(v) {
				return false
			}
		}
	}
	return true
}

func devEnv(v string) bool { return v == "test" || v == "development" || v == "dev" }

// mixTestDBTasks act on the database of MIX_ENV.
var mixTestDBTasks = wordSet{words: []string{"ecto.setup", "ecto.create"}}

// testDBVerbOff reports whether tool's verb is a database task that
// creates and migrates the database of a test or development MIX_ENV,
// allowed with the sandbox off.
func (x *cmdCtx) testDBVerbOff(tool, verb string) bool {
	return tool == "mix" && mixTestDBTasks.has(verb) && devEnvAssigns(x, "MIX_ENV")
}

// remoteCacheConfigured reports whether the workspace links tool (turbo,
// nx) to a remote cache, which uploads the build's outputs.
func (x *cmdCtx) remoteCacheConfigured(tool string) bool {
	for _, d := range x.registryDirs() { // registryquery_off.go
		switch tool {
		case "turbo":
			if fileSays(filepath.Join(d, ".turbo", "config.json"), []string{""}) || fileSays(filepath.Join(d, "turbo.json"), []string{"remoteCache"}) {
				return true
			}
		case "nx":
			if fileSays(filepath.Join(d, "nx.json"), []string{"nxCloud", "accessToken"}) {
				return true
			}
		}
	}
	return false
}

// goWorkSync judges go work's sub-command words: `go work sync` alone
// writes the workspace modules' go.mod requirements from go.work's build
// list. It runs no code and resolves no new module (only versions the
// workspace's go.mod files already require, which go build fetches too);
// it reports whether it judged the line.
func goWorkSync(x *cmdCtx, sargs []word) bool {
	if len(sargs) != 1 || !sargs[0].static || sargs[0].val != "sync" {
		return false
	}
	x.add(Allow, RuleBuildProject, "go work sync aligns the workspace modules' requirements")
	x.inWorkspace()
	return true
}
