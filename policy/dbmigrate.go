package policy

import "strings"

// The migration tools against the sandbox's own loopback (localdb.go says
// why; dbclients.go reads their options): dbmate
// up/migrate/status/new/create/wait/dump and golang-migrate
// up/version/create with a connection URL on the loopback and migration
// directories inside the workspace.

// dbmateVerb: dbmate --url URL [--migrations-dir D] VERB, VERB one that
// creates, applies or lists (never drop, rollback or down); new NAME
// writes a migration file and reaches no server.
func dbmateVerb(t *dbRead) bool {
	if len(t.ops) == 0 {
		return false
	}
	switch t.ops[0] {
	case "new", "n":
		return len(t.ops) <= 2
	case "up", "migrate", "status", "create", "wait", "dump":
		return len(t.ops) == 1 && t.urlSeen && t.local
	}
	return false
}

// golangMigrateVerb: migrate -path DIR|-source file://DIR -database URL
// up [N] | version, or create (migration files only).
func golangMigrateVerb(t *dbRead) bool {
	if len(t.ops) == 0 {
		return false
	}
	switch t.ops[0] {
	case "create":
		return true
	case "up":
		return (len(t.ops) == 1 || len(t.ops) == 2 && isDigits(t.ops[1])) && t.urlSeen && t.local
	case "version":
		return len(t.ops) == 1 && t.urlSeen && t.local
	}
	return false
}

// alembicVerbs are alembic's commands that apply migrations forward or
// only read; downgrade, stamp and merge are not here and ask.
var alembicVerbs = wordSet{words: []string{"upgrade", "revision", "current", "history", "heads", "branches", "check", "show"}}

// alembicCmd: alembic [-c INI] [-x K=V] VERB [ARGS]. alembic imports the
// project's env.py and migration scripts (its own code) and reaches the
// database alembic.ini names, which inside the sandbox can only be on its
// own loopback (localdb.go): allowed there, for the verbs above, with its
// configuration and version paths in the workspace. Elsewhere it is what
// an unknown program is (uv run alembic keeps uv run's judgement).
func alembicCmd(x *cmdCtx, args []word) {
	ok := x.c.sandbox && !x.c.inPlace && len(args) > 1
	var verb string
	var reads []string
	for i := 1; ok && i < len(args); i++ {
		a := args[i]
		if !a.static {
			ok = false
			break
		}
		switch v := a.val; {
		case v == "-c" || v == "--config" || v == "--version-path":
			if i+1 >= len(args) {
				ok = false
				break
			}
			i++
			reads = append(reads, args[i].val)
		case v == "-m" || v == "--message" || v == "-x" || v == "-n" || v == "--name" || v == "--rev-id" || v == "--head" ||
			v == "--branch-label" || v == "--depends-on" || v == "-r" || v == "--rev-range" || v == "--tag":
			i++
		case v == "--autogenerate" || v == "--sql" || v == "-v" || v == "--verbose" || v == "-i" || v == "--indicate-current" ||
			v == "--splice" || v == "-q" || v == "--quiet" || v == "--resolve-dependencies" || v == "--raiseerr":
		case strings.HasPrefix(v, "-"):
			ok = false
		case verb == "":
			verb = v
			ok = alembicVerbs.has(v)
		default:
			ok = plainToken(v) // a revision: head, +1, ae1027a6acf
		}
	}
	if !ok || verb == "" {
		if !x.set {
			x.unknownRunner(args[0].val, args)
		}
		return
	}
	x.add(Allow, RuleSandboxCode, "alembic "+verb+" runs the project's migrations against the sandbox's own database, inside the sandbox")
	x.inWorkspace()
	for _, r := range reads {
		x.readStr(r)
	}
}

// workspaceRelative: a relative path that stays below the directory (no
// URL, no host:path, no ~, no ..).
func workspaceRelative(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || strings.Contains(p, ":") {
		return false
	}
	for _, el := range strings.Split(p, "/") {
		if el == ".." {
			return false
		}
	}
	return true
}
