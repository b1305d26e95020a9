package policy

import "strings"

// One table of the database clients' options (localdb.go says what is
// allowed and why). Each client's options map to what their value is: a
// host, a statement, a file read or written, a plain name, a setting; one
// reader (readDBArgs) walks every client's words with it, so a new client
// is a row, not a loop.

type dbKind int

const (
	dbFlag     dbKind = iota + 1 // takes no value
	dbHost                       // a host name, socket directory or host:port
	dbURL                        // a connection URL, whose host is judged
	dbName                       // psql's dbname: a name, a URL or a conninfo string
	dbStmt                       // a statement the client runs
	dbFile                       // a file of statements it reads
	dbOut                        // a file it writes
	dbPlain                      // a plain name (user, database, format)
	dbSetting                    // NAME=value of plain tokens
	dbDigits                     // a number (port, database index)
	dbSecret                     // a password: any static text
	dbWSDir                      // a directory below the working directory
	dbSource                     // file://DIR, DIR below the working directory
	dbPassword                   // mysql's -p: alone (prompts) or joined (-pSECRET)
)

// dbOpts maps each client to its options; a name of several spellings is
// listed once per spelling.
var dbOpts = lazy[map[string]map[string]dbKind]{build: func() map[string]map[string]dbKind {
	f, h, u, n, st, fi, out, pl, set, dg, sec, wsd, src, pw := dbFlag, dbHost, dbURL, dbName, dbStmt, dbFile, dbOut, dbPlain, dbSetting, dbDigits, dbSecret, dbWSDir, dbSource, dbPassword
	psql := map[string]dbKind{"-h": h, "--host": h, "-c": st, "--command": st, "-d": n, "--dbname": n, "-p": dg, "--port": dg,
		"-U": pl, "--username": pl, "-v": set, "--variable": set, "--set": set, "-P": set, "--pset": set, "-f": fi, "--file": fi,
		"-o": out, "--output": out, "-L": out, "--log-file": out, "-l": f, "--list": f}
	for _, o := range []string{"-X", "--no-psqlrc", "-A", "--no-align", "-t", "--tuples-only", "-q", "--quiet", "-x", "--expanded",
		"-w", "--no-password", "--csv", "-H", "--html", "-e", "--echo-queries", "-a", "--echo-all", "-b", "--echo-errors", "-1",
		"--single-transaction", "-n", "--no-readline", "-E", "--echo-hidden"} {
		psql[o] = f
	}
	mysql := map[string]dbKind{"-h": h, "--host": h, "-e": st, "--execute": st, "-P": dg, "--port": dg, "-u": pl, "--user": pl,
		"-D": pl, "--database": pl, "-p": pw, "--password": pw, "--protocol": pl}
	for _, o := range []string{"-N", "--skip-column-names", "-B", "--batch", "-s", "--silent", "-t", "--table", "-E", "--vertical",
		"-r", "--raw", "--no-auto-rehash", "-A", "--column-names", "-v", "--verbose"} {
		mysql[o] = f
	}
	redis := map[string]dbKind{"-h": h, "-u": u, "-p": dg, "-n": dg, "-a": sec, "--user": pl, "--pass": sec, "--pattern": sec,
		"--count": dg, "--raw": f, "--no-raw": f, "--no-auth-warning": f, "-c": f, "--resp2": f, "--resp3": f, "--scan": f}
	mongo := map[string]dbKind{"--host": h, "--eval": st, "--port": dg, "--quiet": f, "--norc": f, "--json": f, "--json=relaxed": f, "--json=canonical": f, "--nodb": f,
		"-u": pl, "--username": pl, "-p": sec, "--password": sec, "--authenticationDatabase": pl}
	clickhouse := map[string]dbKind{"-h": h, "--host": h, "--port": dg, "-u": pl, "--user": pl, "--password": sec, "-d": pl,
		"--database": pl, "-q": st, "--query": st, "-f": pl, "--format": pl, "-n": f, "--multiquery": f, "-t": f, "--time": f}
	cqlsh := map[string]dbKind{"-e": st, "--execute": st, "-u": pl, "--username": pl, "-p": sec, "--password": sec, "-k": pl,
		"--keyspace": pl, "--no-color": f, "-C": f, "--color": f, "--request-timeout": dg, "--connect-timeout": dg}
	createdb := map[string]dbKind{"-h": h, "--host": h, "-p": dg, "--port": dg, "-U": pl, "--username": pl, "-O": pl, "--owner": pl,
		"-E": pl, "--encoding": pl, "-T": pl, "--template": pl, "-l": pl, "--locale": pl, "--lc-collate": pl, "--lc-ctype": pl,
		"-D": pl, "--tablespace": pl, "-S": pl, "--strategy": pl, "-w": f, "--no-password": f, "-e": f, "--echo": f}
	pgDump := map[string]dbKind{"-h": h, "--host": h, "-p": dg, "--port": dg, "-U": pl, "--username": pl, "-d": n, "--dbname": n,
		"-f": out, "--file": out, "-t": pl, "--table": pl, "-n": pl, "--schema": pl, "-F": pl, "--format": pl, "-T": pl, "--exclude-table": pl}
	for _, o := range []string{"-s", "--schema-only", "-a", "--data-only", "-O", "--no-owner", "-x", "--no-privileges", "--no-acl",
		"--no-comments", "-c", "--clean", "--if-exists", "-w", "--no-password", "--inserts", "--column-inserts", "-v", "--verbose"} {
		pgDump[o] = f
	}
	dbmate := map[string]dbKind{"-u": u, "--url": u, "-d": wsd, "--migrations-dir": wsd, "-s": wsd, "--schema-file": wsd,
		"--no-dump-schema": f, "--wait": f, "--strict": f, "--verbose": f, "-v": f}
	migrate := map[string]dbKind{"-database": u, "-path": wsd, "-dir": wsd, "-source": src, "-ext": pl, "-format": pl, "-tz": pl,
		"-seq": f, "-verbose": f}
	for k, v := range migrate {
		migrate["-"+k] = v // golang-migrate reads --database as -database
	}
	return map[string]map[string]dbKind{"psql": psql, "mysql": mysql, "mariadb": mysql, "redis-cli": redis, "valkey-cli": redis,
		"mongosh": mongo, "mongo": mongo, "clickhouse-client": clickhouse, "cqlsh": cqlsh, "createdb": createdb, "pg_dump": pgDump,
		"dbmate": dbmate, "migrate": migrate}
}}

// dbRead is what a client's words say: whether every host is local, the
// statements, the files it reads and writes, its flags and operands.
type dbRead struct {
	local      bool
	stmts      []string
	files      []string
	outs       []string
	flags      map[string]bool
	ops        []string
	urlSeen    bool
	nameFailed bool
	hostNamed  bool // a host, URL host or socket directory was written (dbloopback_off.go)
}

func (t *dbRead) host(h string) {
	if hp, port, ok := strings.Cut(h, ":"); ok && !strings.HasPrefix(h, "/") && !strings.Contains(port, ":") && isDigits(port) {
		h = hp // localhost:27017
	}
	if !localDBHost(h) {
		t.local = false
	}
	if h != "" {
		t.hostNamed = true
	}
}

// readDBArgs reads a client's words with its row of dbOpts; false when a
// word is an option the row does not hold or a value is not what its kind
// allows.
func readDBArgs(prog string, args []word) (dbRead, bool) {
	opts := dbOpts.get()[prog]
	t := dbRead{local: true, flags: map[string]bool{}}
	for i := 0; i < len(args); i++ {
		a := args[i].val
		kind, val, has := dbKind(0), "", false
		switch name, v, eq := strings.Cut(a, "="); {
		case opts[a] == dbFlag:
			t.flags[a] = true
			continue
		case opts[a] == dbPassword:
			continue // mysql -p prompts for the password
		case opts[a] != 0:
			if i+1 >= len(args) {
				return t, false
			}
			kind, val, has = opts[a], args[i+1].val, true
			i++
		case eq && strings.HasPrefix(a, "--") && opts[name] != 0 && opts[name] != dbFlag:
			kind, val, has = opts[name], v, true
		case len(a) > 2 && a[0] == '-' && a[1] != '-' && opts[a[:2]] != 0 && opts[a[:2]] != dbFlag:
			kind, val, has = opts[a[:2]], a[2:], true // -h127.0.0.1, -pSECRET
		case len(a) > 2 && a[0] == '-' && a[1] != '-' && allDBFlags(opts, a[1:]):
			for _, c := range a[1:] {
				t.flags["-"+string(c)] = true // -lqt, -At
			}
			continue
		case strings.HasPrefix(a, "-") && a != "-":
			return t, false // an option the table does not hold: files, plugins, settings read from elsewhere
		}
		if !has {
			t.ops = append(t.ops, a)
			continue
		}
		if !t.value(kind, val) {
			return t, false
		}
	}
	return t, true
}

func allDBFlags(opts map[string]dbKind, letters string) bool {
	for _, c := range letters {
		if opts["-"+string(c)] != dbFlag {
			return false
		}
	}
	return true
}

// value judges one option's value by its kind.
func (t *dbRead) value(kind dbKind, v string) bool {
	switch kind {
	case dbHost:
		t.host(v)
	case dbURL:
		h, ok := dbURLHost(v)
		if !ok {
			return false
		}
		t.host(h)
		t.urlSeen = true
	case dbName:
		return t.dbname(v)
	case dbStmt:
		t.stmts = append(t.stmts, v)
	case dbFile:
		t.files = append(t.files, v)
	case dbOut:
		t.outs = append(t.outs, v)
	case dbPlain:
		return plainToken(v)
	case dbSetting:
		return plainSetting(v) || plainToken(v)
	case dbDigits:
		return isDigits(v)
	case dbWSDir:
		return workspaceRelative(v)
	case dbSource:
		p, ok := strings.CutPrefix(v, "file://")
		return ok && workspaceRelative(p)
	}
	return true
}

// dbname reads psql's database name: a plain name, a URI, or a conninfo
// string of key=value pairs.
func (t *dbRead) dbname(v string) bool {
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
