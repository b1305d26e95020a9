package policy

import (
	"path/filepath"
	"strings"
)

// The project's own code with --sandbox off (the lead's decision on issue
// 32). With the sandbox off the person has taken the boundary away, and the
// policy judges as a careful person at their own terminal would. The
// project's code already runs unasked off (`npm test`, `make test`,
// `go test`), so running a workspace script or program through a known
// interpreter or runner (`python scripts/x.py`, `php artisan test`,
// `bin/console cache:clear`, `deno task build`, `composer test`,
// `dotnet run`) is the same risk and is allowed off too (runFile in
// sandboxed.go, verbHandler in buildverbs.go). What still asks off: code
// fetched from the network (npx/uvx of an undeclared package, `deno run
// https://…`, installs), inline code, a script the same line writes
// (writtenBefore), writes outside the workspace, secrets and remote
// services.
//
// The off misses by class over every corpus (off30), and what stays asked:
// npx/bunx/uvx/uv tool run/pipx run of a tool the workspace does not
// declare, or of a version the line names (the newest or a chosen release,
// not the locked one: a download run on the host); installs and lockfile
// resolutions (npm ci, pnpm/yarn/bun install, uv sync, uv lock --check,
// pip install, poetry install/lock, composer install, bundle install, mvn
// install, swift package resolve, dotnet restore: they fetch from a
// registry and may run the fetched packages' build code); tox and nox
// (they install from the index); tools that reach a network service with
// the person's credentials (gh, kubectl, terraform plan/init, git
// fetch/pull, go mod tidy/download, pip-audit, cargo update); writes to the
// person's /tmp (not the coder's own with the sandbox off); databases an
// ORM's configuration names (alembic upgrade, rails runner, db:test:prepare,
// ecto.reset); a workspace binary run by path (./build/x, valgrind, gdb,
// ldd: a copy of any system program could sit there); pagers (less) and
// debuggers with consoles (pdb, dlv); python -m http.server (it serves every
// file, .env included, to any local process or page); cargo +toolchain
// (rustup may fetch the toolchain). Each is decided in its own rule file.

// offInterpreters run a workspace script that is allowed with the sandbox
// off: the interpreters and runners agents use on a project's own scripts.
// Others (pwsh with its execution-policy switches, perl, awk programs) keep
// asking off.
var offInterpreters = wordSet{words: []string{"python", "python3", "node", "php", "ruby", "bun", "deno",
	"bash", "sh", "zsh"}}

// runScript judges the interpreter name running the workspace script w.
// Inside the sandbox it is runFile; with the sandbox off a script of the
// workspace run by one of offInterpreters is allowed, unless this line
// wrote a file before it (the script may be what it wrote).
func (x *cmdCtx) runScript(name string, w word, rule string) {
	what := name + " runs the script " + quoteShort(w.val)
	offOK := offInterpreter(name) && !x.writtenBefore()
	if !x.c.sandbox && offOK && publishTarget(scriptStem(w.val)) {
		// `make deploy` and `npm run release` ask as publishing; the same
		// step as a script of the project (scripts/deploy.sh,
		// bin/publish.js) is that step too, and with the sandbox off
		// nothing holds what it reaches.
		x.add(Ask, RulePublish, what+": its name says it installs, publishes or deploys, and the sandbox is off")
		return
	}
	x.runFileOff(w, what, rule, what+", and the sandbox is off", offOK)
}

// scriptStem is a script path's file name without its extension
// (scripts/deploy-prod.sh is deploy-prod).
func scriptStem(p string) string {
	b := filepath.Base(p)
	return strings.TrimSuffix(b, filepath.Ext(b))
}

// offInterpreter reports whether the interpreter name (python3.12,
// /usr/bin/node) is one of offInterpreters.
func offInterpreter(name string) bool {
	base := strings.TrimRight(filepath.Base(name), "0123456789.")
	if base == "python" || base == "python3" {
		base = "python"
	}
	return offInterpreters.has(base)
}

// offRunVerb reports whether the run verb of tool runs only the project's
// own code, so that it is allowed with the sandbox off: the runners of
// deno, composer, mix, dotnet, bun, swift, cabal and stack, and dvc's
// pipeline. Maven plugin
// goals (`mvn formatter:format`) resolve plugins the project may not
// declare from the network; `stack exec` runs any program; bazel, nix,
// terraform/tofu, tflint and buf fetch rules, providers and plugins
// (terraform validate and graph only run the installed providers:
// offlocal_tools.go).
func offRunVerb(tool, verb string) bool {
	if offTerraformVerb(tool, verb) { // offlocal_tools.go: validate, graph
		return true
	}
	switch tool {
	case "dvc":
		// dvc repro and exp run run the stages dvc.yaml names, the
		// project's own commands, as make runs its targets (off31);
		// --pull, --queue and --run-all ask (offRunArgs).
		return verb == "repro" || verb == "exp run"
	case "deno", "composer", "mix", "dotnet", "bun", "swift", "cabal":
	case "stack":
		if verb == "exec" {
			return false
		}
	default:
		return false
	}
	low := strings.ToLower(verb)
	for _, w := range offAskWords {
		if strings.Contains(low, w) {
			return false
		}
	}
	return true
}

// offAskWords mark a task that installs or wipes rather than builds, tests
// or runs: `mix setup` (deps.get, ecto.setup), `mix ecto.drop`,
// `rails db:reset`. They stay asked with the sandbox off, where the
// database and the package caches are the person's own.
var offAskWords = []string{"setup", "install", "bootstrap", "deps", "drop", "reset", "purge", "wipe", "destroy", "clean", "seed"}
