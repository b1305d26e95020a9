package policy

import (
	"net/url"
	"strings"
)

// Database clients and migration tools against a local test instance
// (issue 32, polcorp7 and polcorp8 everyday/db). Inside the sandbox the
// coder's network namespace has only its own loopback (bwrap
// --unshare-net; the helper forwards one port to Sentinel's HTTP proxy)
// and no host unix socket is mounted, so a server on localhost,
// 127.0.0.1, ::1 or a socket directory is one the run started itself; a
// server anywhere else cannot be reached at all. So, in the sandbox and
// never in place, a client whose every target is provably the loopback (a
// host option, a connection URL, or none, which is the client's local
// default) is allowed for what reads, creates or changes that run's own
// database:
//
//   - psql/mysql/mariadb statements that read (sqlReadOnly, psql's
//     describe commands) or plainly change a table, database or row
//     (sqlLocalChange: CREATE DATABASE, INSERT, DROP TABLE…), and psql -f
//     of a project file (the project's own statements, as running its
//     own script is) or psql -l; the run's database is the run's, as its
//     build directory is;
//   - redis-cli's reading commands and --scan, a mongosh --eval that only
//     calls reading methods on db, clickhouse-client and cqlsh queries
//     that read or DESCRIBE;
//   - createdb and pg_dump of a database on that server (pg_dump's output
//     is judged as the write it is: into the workspace, not outside);
//   - migrations forward (dbmate up/migrate/status/new/create/wait,
//     golang-migrate up/version/create).
//
// Everything else (a statement that reaches outside the server: COPY,
// PROGRAM, dblink, a foreign server, an extension, a file function, a
// shell escape; statements read from stdin; an option the table in
// dbclients.go does not hold; a host that is not the loopback; a host or
// URL from a variable) goes to the client's earlier handler, which asks or
// denies. With the sandbox off or in place the loopback is the person's
// own machine: only reads are allowed there (dbloopback_off.go). A drop
// aimed at another host or a variable's URL is denied (dbdrophost.go).

// dbURLSchemes are connection-URL schemes of database servers.
var dbURLSchemes = wordSet{words: []string{"postgres", "postgresql", "mysql", "mariadb", "mongodb", "mongodb+srv", "redis",
	"rediss", "sqlserver", "mssql", "cockroachdb", "clickhouse", "tcp"}}

// dbURLHost is the host of a database connection URL and whether v is one.
// A URL without a host (postgres:///app) is the client's local default.
func dbURLHost(v string) (string, bool) {
	scheme, _, ok := strings.Cut(v, "://")
	if !ok || !dbURLSchemes.has(strings.ToLower(scheme)) {
		return "", false
	}
	u, err := url.Parse(v)
	if err != nil {
		return "?", true
	}
	if h := u.Query().Get("host"); h != "" {
		return h, true // postgres:///db?host=/var/run/postgresql
	}
	if strings.Contains(u.Host, ",") {
		return "?", true // several hosts: not one provable place
	}
	return u.Hostname(), true
}

// globAfterHost: a connection URL whose only glob characters (an
// unquoted ?sslmode=disable) come after its host: whatever file names
// the shell might put there, the host stays the one written.
func globAfterHost(v string) bool {
	_, rest, ok := strings.Cut(v, "://")
	if !ok {
		return false
	}
	if _, ok := dbURLHost(v); !ok {
		return false
	}
	end := strings.IndexAny(rest, "/?")
	if end < 0 || strings.ContainsAny(rest[:end], "*?[]{}") {
		return false
	}
	return !strings.ContainsAny(rest[:end], "*[]{}")
}

// localDBHost: a host that is the loopback, a unix socket directory, or
// the client's default ("").
func localDBHost(h string) bool {
	return h == "" || loopbackHost(h) || h == "0.0.0.0" || strings.HasPrefix(h, "/")
}

// localDB wraps a database client's handler (see above).
func localDB(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		if !x.c.sandbox || x.c.inPlace {
			if !x.localDBReadOff(args) && !x.localDBDevWriteOff(args) { // dbloopback_off.go, dbdevwrites_off.go
				prev(x, args)
			}
			return
		}
		for _, a := range args[1:] {
			if !a.static || a.pattern && !globAfterHost(a.val) {
				prev(x, args)
				return
			}
		}
		prog := baseName(args[0].val)
		t, ok := readDBArgs(prog, args[1:]) // dbclients.go
		if !ok || !t.local {
			prev(x, args)
			return
		}
		why, ok := localDBUse(prog, &t)
		if !ok {
			prev(x, args)
			return
		}
		x.add(Allow, RuleLocalHealth, args[0].val+" "+why+" on a server on the sandbox's own loopback (the only one the sandbox can reach)")
		for _, f := range t.files {
			x.readStr(f) // psql -f db/schema.sql: the project's own statements
		}
		for _, f := range t.outs {
			x.writeStr(f) // pg_dump -f, psql -o: judged as the writes they are
		}
	}
}

// localDBUse judges what a client does once every target is local: ok
// when it only reads, describes, creates, changes the run's own database
// with statements on the line or in a project file, or migrates forward.
func localDBUse(prog string, t *dbRead) (string, bool) {
	switch prog {
	case "psql":
		if len(t.ops) > 2 || len(t.ops) > 0 && !t.dbname(t.ops[0]) || !t.local {
			return "", false
		}
		if len(t.stmts) == 0 && len(t.files) == 0 {
			return "lists the databases", t.flags["-l"] || t.flags["--list"] // else it reads statements from stdin
		}
		return "runs statements on the run's own database", allLocalStmts(t.stmts, true)
	case "mysql", "mariadb":
		return "runs statements on the run's own database", len(t.ops) <= 1 && (len(t.ops) == 0 || plainToken(t.ops[0])) &&
			len(t.stmts) > 0 && allLocalStmts(t.stmts, false)
	case "clickhouse-client":
		return "reads the database", len(t.ops) == 0 && len(t.stmts) > 0 && allRead(t.stmts)
	case "cqlsh":
		if len(t.ops) > 2 || len(t.ops) == 2 && !isDigits(t.ops[1]) {
			return "", false
		}
		if len(t.ops) > 0 {
			t.host(t.ops[0])
		}
		return "reads the keyspace", t.local && len(t.stmts) > 0 && allRead(t.stmts)
	case "redis-cli", "valkey-cli":
		if t.flags["--scan"] {
			return "lists keys", len(t.ops) == 0
		}
		return "reads keys or server information", redisReadCommand(t.ops)
	case "mongosh", "mongo":
		if len(t.ops) > 1 {
			return "", false
		}
		if len(t.ops) == 1 {
			if h, ok := dbURLHost(t.ops[0]); ok {
				t.host(h)
			} else if !plainToken(t.ops[0]) {
				return "", false
			}
		}
		return "reads the database", t.local && len(t.stmts) == 1 && mongoEvalReads(t.stmts[0])
	case "pg_dump":
		if len(t.ops) > 1 || len(t.ops) == 1 && !t.dbname(t.ops[0]) {
			return "", false
		}
		return "dumps a database", t.local
	case "createdb":
		return "creates a database", len(t.ops) >= 1 && len(t.ops) <= 2 && plainToken(t.ops[0])
	case "dbmate":
		return "applies or lists the project's migrations", dbmateVerb(t)
	case "migrate":
		return "applies or lists the project's migrations", golangMigrateVerb(t)
	}
	return "", false
}

func allRead(stmts []string) bool {
	for _, s := range stmts {
		if !sqlReadOnly(s) && !cqlDescribe(s) {
			return false
		}
	}
	return true
}

// cqlDescribe: cqlsh's and clickhouse's DESCRIBE/DESC, which only print.
func cqlDescribe(s string) bool {
	t := strings.ToLower(strings.TrimSpace(s))
	return (strings.HasPrefix(t, "describe ") || strings.HasPrefix(t, "desc ")) && !strings.ContainsAny(t, ";|`$")
}

// allLocalStmts: every statement reads, describes (psql's \d…) or is a
// plain change of the run's own database (sqlLocalChange).
func allLocalStmts(stmts []string, psql bool) bool {
	for _, s := range stmts {
		t := strings.TrimSpace(s)
		switch {
		case psql && strings.HasPrefix(t, `\`):
			if !psqlMeta(t) {
				return false
			}
		case !sqlReadOnly(t) && !sqlLocalChange(t):
			return false
		}
	}
	return true
}

// redisReadCommand: COMMAND ARGS, the command one that only reads.
func redisReadCommand(ops []string) bool {
	if len(ops) == 0 {
		return false // reads commands from stdin
	}
	cmd := strings.ToLower(ops[0])
	if cmd == "object" {
		return len(ops) > 1 && strings.EqualFold(ops[1], "encoding")
	}
	return redisReads.has(cmd)
}

// redisReads are redis-cli commands that only read.
var redisReads = wordSet{words: []string{"ping", "info", "dbsize", "get", "mget", "keys", "scan", "type", "ttl", "pttl",
	"exists", "strlen", "hget", "hgetall", "hkeys", "hlen", "hvals", "hmget", "hexists", "lrange", "llen", "lindex",
	"smembers", "scard", "sismember", "zrange", "zcard", "zscore", "zrangebyscore", "xlen", "xrange", "xinfo", "time",
	"lastsave", "role", "echo", "getrange", "bitcount", "pfcount"}}

// mongoReadMethods are the collection and database methods that only read.
var mongoReadMethods = wordSet{words: []string{"find", "findOne", "countDocuments", "estimatedDocumentCount", "count",
	"distinct", "getIndexes", "stats", "getCollectionNames", "getName", "version", "serverStatus", "hello", "isMaster",
	"toArray", "limit", "sort", "skip", "pretty", "projection", "getCollectionInfos", "listCollections", "itcount", "explain"}}

// mongoEvalReads: the --eval text is a chain of calls on db whose every
// method only reads, with literal arguments (no function, no require).
func mongoEvalReads(js string) bool {
	s := strings.TrimSuffix(strings.TrimSpace(js), ";")
	if !strings.HasPrefix(s, "db.") || strings.ContainsAny(s, ";`=\\") || strings.Contains(s, "=>") {
		return false
	}
	for _, bad := range []string{"function", "require", "process", "load(", "eval", "$where", "$function", "$accumulator", "mapReduce", "aggregate", "$out", "$merge"} {
		if strings.Contains(s, bad) {
			return false
		}
	}
	// every identifier directly before "(" is a method: it must read
	for i := 0; i < len(s); i++ {
		if s[i] != '(' {
			continue
		}
		j := i
		for j > 0 && jsIdentByte(s[j-1]) {
			j--
		}
		if name := s[j:i]; !mongoReadMethods.has(name) {
			return false
		}
	}
	return true
}

func jsIdentByte(b byte) bool {
	return b == '_' || b == '$' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// addLocalDBHandlers wraps the database clients and registers the
// migration tools (localdb.go, dbdrophost.go).
func addLocalDBHandlers(handlers map[string]handler) {
	for n := range dbOpts.get() { // dbclients.go
		prev := handlers[n]
		if prev == nil && (n == "createdb" || n == "dbmate" || n == "migrate") {
			prev = orUnknown(nil)
		} else if prev == nil {
			// a client the policy had no handler for (pg_dump, cqlsh) stays
			// what an unknown program is, under uv run as alone
			prev = func(x *cmdCtx, args []word) {
				if !x.set {
					x.unknownRunner(args[0].val, args)
				}
			}
		}
		handlers[n] = localDB(prev)
	}
	handlers["dropdb"] = dropdbCmd() // dbdrophost.go
	handlers["alembic"] = alembicCmd // dbmigrate.go
}
