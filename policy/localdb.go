package policy

import (
	"net/url"
	"strings"
)

// Database clients and migration tools against a local test instance
// (issue 32, polcorp7 everyday/db). Inside the sandbox the coder's network
// namespace has only its own loopback (the helper forwards one port to
// Sentinel's proxy) and no host unix socket is mounted, so a server on
// localhost, 127.0.0.1, ::1 or a socket directory is one the run started
// itself; a server anywhere else cannot be reached at all. So, in the
// sandbox and never in place, a client whose every target is provably the
// loopback (a host option, a connection URL, or none, which is the
// client's local default) is allowed for what only reads or creates:
//
//   - psql/mysql/mariadb statements that only read (sqlReadOnly, psql's
//     describe commands), redis-cli's reading commands, a mongosh --eval
//     that only calls reading methods on db;
//   - createdb of a database on that server;
//   - migrations forward (dbmate up/migrate/status/new/create/wait,
//     golang-migrate up/version/create).
//
// Everything else (a write, a drop or a rollback, statements read from a
// file or stdin, an option the tables below do not hold, a host that is
// not the loopback, a host or URL from a variable) goes to the client's
// earlier handler, which asks or denies. With the sandbox off or in place
// the loopback is the person's own machine: asked as before. A drop
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

// dbTarget collects what a client's words say about its server.
type dbTarget struct {
	local bool     // every host named is local
	stmts []string // statements given on the line
}

// localDB wraps a database client's handler (see above).
func localDB(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		if !x.c.sandbox || x.c.inPlace {
			prev(x, args)
			return
		}
		for _, a := range args[1:] {
			if !a.static || a.pattern && !globAfterHost(a.val) {
				prev(x, args)
				return
			}
		}
		why, ok := localDBUse(baseName(args[0].val), args[1:])
		if !ok {
			prev(x, args)
			return
		}
		x.add(Allow, RuleLocalHealth, args[0].val+" "+why+" on a server on the sandbox's own loopback (the only one the sandbox can reach)")
	}
}

// localDBUse reads a client's arguments; ok when every target is local
// and the use only reads, creates or migrates forward.
func localDBUse(prog string, args []word) (string, bool) {
	switch prog {
	case "psql":
		t, ok := psqlTarget(args)
		return "reads or describes the database", ok && t.local && len(t.stmts) > 0 && psqlStatementsRead(t.stmts)
	case "mysql", "mariadb":
		t, ok := mysqlTarget(args)
		return "reads the database", ok && t.local && len(t.stmts) > 0 && allRead(t.stmts)
	case "redis-cli", "valkey-cli":
		return "reads keys or server information", redisLocalRead(args)
	case "mongosh", "mongo":
		t, ok := mongoTarget(args)
		return "reads the database", ok && t.local && len(t.stmts) == 1 && mongoEvalReads(t.stmts[0])
	case "createdb":
		return "creates a database", createdbLocal(args)
	case "dbmate":
		return "applies or lists the project's migrations", dbmateLocal(args)
	case "migrate":
		return "applies or lists the project's migrations", golangMigrateLocal(args)
	}
	return "", false
}

func allRead(stmts []string) bool {
	for _, s := range stmts {
		if !sqlReadOnly(s) {
			return false
		}
	}
	return true
}

func psqlStatementsRead(stmts []string) bool {
	for _, s := range stmts {
		t := strings.TrimSpace(s)
		if strings.HasPrefix(t, `\`) {
			if !psqlMeta(t) {
				return false
			}
			continue
		}
		if !sqlReadOnly(t) {
			return false
		}
	}
	return true
}

// optValue splits --name=value and -xVALUE forms: the option's value and
// how many words it used (0 when a is not opt).
func optValue(args []word, i int, short, long string) (string, int) {
	a := args[i].val
	switch {
	case a == short || a == long:
		if i+1 >= len(args) {
			return "", -1
		}
		return args[i+1].val, 2
	case long != "" && strings.HasPrefix(a, long+"="):
		return a[len(long)+1:], 1
	case short != "" && len(short) == 2 && strings.HasPrefix(a, short) && !strings.HasPrefix(a, "--") && len(a) > 2:
		return a[2:], 1
	}
	return "", 0
}

// hostLocal judges one named host or URL operand.
func (t *dbTarget) host(h string) {
	if !localDBHost(h) {
		t.local = false
	}
}

// psqlTarget: psql [OPTION]... [DBNAME [USERNAME]], DBNAME possibly a URI
// or a conninfo string.
func psqlTarget(args []word) (dbTarget, bool) {
	t := dbTarget{local: true}
	operands := 0
	for i := 0; i < len(args); i++ {
		a := args[i].val
		if v, n := optValue(args, i, "-h", "--host"); n != 0 {
			if n < 0 {
				return t, false
			}
			t.host(v)
			i += n - 1
			continue
		}
		if v, n := optValue(args, i, "-c", "--command"); n != 0 {
			if n < 0 {
				return t, false
			}
			t.stmts = append(t.stmts, v)
			i += n - 1
			continue
		}
		if v, n := optValue(args, i, "-d", "--dbname"); n != 0 {
			if n < 0 || !t.dbname(v) {
				return t, false
			}
			i += n - 1
			continue
		}
		skip := false
		for _, o := range [][2]string{{"-p", "--port"}, {"-U", "--username"}, {"-v", "--variable"}, {"-P", "--pset"}} {
			if v, n := optValue(args, i, o[0], o[1]); n != 0 {
				if n < 0 || o[0] == "-v" && !plainSetting(v) || o[0] == "-P" && !plainSetting(v) {
					return t, false
				}
				i += n - 1
				skip = true
				break
			}
		}
		if skip {
			continue
		}
		switch a {
		case "-X", "--no-psqlrc", "-A", "--no-align", "-t", "--tuples-only", "-q", "--quiet", "-x", "--expanded",
			"-w", "--no-password", "--csv", "-H", "--html", "-e", "--echo-queries", "-a", "--echo-all", "-b", "--echo-errors", "-1", "--single-transaction":
			continue
		}
		if strings.HasPrefix(a, "-") {
			return t, false // -f, -o, -L, --log-file and the rest: files or unknown
		}
		operands++
		if operands == 1 && !t.dbname(a) || operands > 2 {
			return t, false
		}
	}
	return t, true
}

// dbname reads psql's database name: a plain name, a URI, or a conninfo
// string of key=value pairs.
func (t *dbTarget) dbname(v string) bool {
	if h, ok := dbURLHost(v); ok {
		t.host(h)
		return true
	}
	if strings.Contains(v, "=") {
		for _, kv := range strings.Fields(v) {
			k, val, ok := strings.Cut(kv, "=")
			if !ok {
				return false
			}
			switch k {
			case "host", "hostaddr":
				t.host(val)
			case "dbname", "user", "port", "sslmode", "connect_timeout", "application_name", "password":
			default:
				return false // service=, passfile=, sslkey=: settings read from elsewhere
			}
		}
		return true
	}
	return plainToken(v)
}

// plainSetting: NAME=value of plain tokens (ON_ERROR_STOP=1, pager=off).
func plainSetting(v string) bool {
	k, val, ok := strings.Cut(v, "=")
	return ok && plainToken(k) && (val == "" || plainToken(val))
}

// mysqlTarget: mysql [OPTIONS] [DATABASE].
func mysqlTarget(args []word) (dbTarget, bool) {
	t := dbTarget{local: true}
	operands := 0
	for i := 0; i < len(args); i++ {
		a := args[i].val
		if v, n := optValue(args, i, "-h", "--host"); n != 0 {
			if n < 0 {
				return t, false
			}
			t.host(v)
			i += n - 1
			continue
		}
		if v, n := optValue(args, i, "-e", "--execute"); n != 0 {
			if n < 0 {
				return t, false
			}
			t.stmts = append(t.stmts, v)
			i += n - 1
			continue
		}
		skip := false
		for _, o := range [][2]string{{"-P", "--port"}, {"-u", "--user"}, {"-D", "--database"}} {
			if v, n := optValue(args, i, o[0], o[1]); n != 0 {
				if n < 0 || !plainToken(v) {
					return t, false
				}
				i += n - 1
				skip = true
				break
			}
		}
		if skip {
			continue
		}
		switch {
		case a == "-p" || strings.HasPrefix(a, "-p") && !strings.HasPrefix(a, "--") || strings.HasPrefix(a, "--password"):
			continue // the password, joined (-pSECRET) or prompted for
		case a == "--protocol=tcp" || a == "--protocol=TCP" || a == "--protocol=socket" || a == "--protocol=SOCKET":
			continue
		}
		switch a {
		case "-N", "--skip-column-names", "-B", "--batch", "-s", "--silent", "-t", "--table", "-E", "--vertical", "-r", "--raw",
			"--no-auto-rehash", "-A", "--column-names", "-v", "--verbose":
			continue
		}
		if strings.HasPrefix(a, "-") {
			return t, false // --init-command, --defaults-file, --plugin-dir, --local-infile and the rest
		}
		operands++
		if operands > 1 || !plainToken(a) {
			return t, false
		}
	}
	return t, true
}

// redisReads are redis-cli commands that only read.
var redisReads = wordSet{words: []string{"ping", "info", "dbsize", "get", "mget", "keys", "scan", "type", "ttl", "pttl",
	"exists", "strlen", "hget", "hgetall", "hkeys", "hlen", "hvals", "hmget", "hexists", "lrange", "llen", "lindex",
	"smembers", "scard", "sismember", "zrange", "zcard", "zscore", "zrangebyscore", "xlen", "xrange", "xinfo", "time",
	"lastsave", "role", "echo", "getrange", "bitcount", "pfcount"}}

// redisLocalRead: redis-cli [-h H] [-p P] [-n DB] [--raw] COMMAND ARGS,
// the command one that only reads.
func redisLocalRead(args []word) bool {
	t := dbTarget{local: true}
	for i := 0; i < len(args); i++ {
		a := args[i].val
		switch a {
		case "-h":
			if i+1 >= len(args) {
				return false
			}
			t.host(args[i+1].val)
			i++
			continue
		case "-u":
			if i+1 >= len(args) {
				return false
			}
			h, ok := dbURLHost(args[i+1].val)
			if !ok {
				return false
			}
			t.host(h)
			i++
			continue
		case "-p", "-n", "-a", "--user", "--pass":
			if i+1 >= len(args) {
				return false
			}
			i++
			continue
		case "--raw", "--no-raw", "--no-auth-warning", "-c", "--resp2", "--resp3":
			continue
		}
		if strings.HasPrefix(a, "-") {
			return false // --eval, -x (stdin), --rdb, --pipe, -r (repeat), -i
		}
		cmd := strings.ToLower(a)
		if cmd == "object" {
			return t.local && i+1 < len(args) && strings.EqualFold(args[i+1].val, "encoding")
		}
		return t.local && redisReads.has(cmd)
	}
	return false
}

// mongoTarget: mongosh [OPTIONS] [URI|DB] --eval JS.
func mongoTarget(args []word) (dbTarget, bool) {
	t := dbTarget{local: true}
	operands := 0
	for i := 0; i < len(args); i++ {
		a := args[i].val
		if v, n := optValue(args, i, "", "--host"); n != 0 {
			if n < 0 {
				return t, false
			}
			t.host(v)
			i += n - 1
			continue
		}
		if v, n := optValue(args, i, "", "--eval"); n != 0 {
			if n < 0 {
				return t, false
			}
			t.stmts = append(t.stmts, v)
			i += n - 1
			continue
		}
		if v, n := optValue(args, i, "", "--port"); n != 0 {
			if n < 0 || !isDigits(v) {
				return t, false
			}
			i += n - 1
			continue
		}
		switch a {
		case "--quiet", "--norc", "--json", "--json=relaxed", "--json=canonical", "--nodb":
			continue
		}
		if strings.HasPrefix(a, "-") {
			return t, false // --file, --tls*, --apiVersion and the rest
		}
		operands++
		if operands > 1 {
			return t, false
		}
		if h, ok := dbURLHost(a); ok {
			t.host(h)
		} else if !plainToken(a) {
			return t, false
		}
	}
	return t, true
}

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
	for _, n := range []string{"psql", "mysql", "mariadb", "redis-cli", "valkey-cli", "mongosh", "mongo", "createdb", "dbmate", "migrate"} {
		handlers[n] = localDB(orUnknown(handlers[n]))
	}
	handlers["dropdb"] = dropdbCmd() // dbdrophost.go
}
