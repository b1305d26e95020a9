package policy

import "strings"

// Local databases with the sandbox off or in place (issue 32, off24). The
// loopback is then the person's own machine, whose database servers hold
// the person's development data, not a run's throwaway one (localdb.go).
// A person at their own terminal reads them without a second thought:
// `psql -h localhost -d app_test -c '\dt'`, `mysql -h 127.0.0.1 -e 'SHOW
// TABLES'`, `redis-cli -h 127.0.0.1 info keyspace`, `mongosh
// mongodb://localhost:27017/app --eval 'db.users.countDocuments()'`. So a
// client whose every target is the loopback is allowed when all it does is
// read (sqlReadOnly, psql's describe commands, psql -l, redis-cli's
// reading commands and --scan, a mongosh --eval of reading methods,
// clickhouse and cqlsh reads, pg_dump), and nothing leaves the machine.
//
// What still asks (the client's earlier handler): anything that writes,
// creates, drops or flushes (CREATE DATABASE, INSERT, psql -f of a file,
// FLUSHALL, createdb, migrations), statements from stdin, a host that is
// not the loopback, and an unnamed host for the clients that take their
// default host from the person's environment or configuration (PGHOST,
// pg_service.conf, ~/.my.cnf, MYSQL_HOST, clickhouse's and cqlsh's
// config files): with the sandbox off those may name production.
// redis-cli and mongosh default to the loopback whatever the environment
// says. An environment prefix other than the password variables may
// redirect the client (PGHOSTADDR, PGSERVICE) and asks.

// dbDefaultsLocal are the clients whose default host is the loopback
// regardless of the environment.
var dbDefaultsLocal = wordSet{words: []string{"redis-cli", "valkey-cli", "mongosh", "mongo"}}

// dbPasswordVars are the environment prefixes that only give a password.
var dbPasswordVars = wordSet{words: []string{"PGPASSWORD", "MYSQL_PWD", "REDISCLI_AUTH"}}

// localDBReadOff allows a read of a loopback database with the sandbox off
// or in place (see above); it reports whether it did.
func (x *cmdCtx) localDBReadOff(args []word) bool {
	prog, t, ok := x.localDBArgs(args)
	if !ok || !t.local {
		return false
	}
	why, ok := localDBRead(prog, &t)
	if !ok || !t.local || !t.hostNamed && !dbDefaultsLocal.has(prog) {
		return false
	}
	x.add(Allow, RuleLocalHealth, args[0].val+" "+why+" on a server on "+x.loopbackWhere())
	for _, f := range t.outs {
		x.writeStr(f) // pg_dump -f, psql -o: judged as the writes they are
	}
	return true
}

// localDBRead judges what a client does once every target is local: ok
// when it only reads. It reads psql's, mongosh's and cqlsh's operands
// (a database name or URL, a host) first, as localDBUse does.
func localDBRead(prog string, t *dbRead) (string, bool) {
	switch prog {
	case "psql":
		if len(t.ops) > 2 || len(t.ops) > 0 && !t.dbname(t.ops[0]) || len(t.files) > 0 {
			return "", false
		}
		if len(t.stmts) == 0 {
			return "lists the databases", t.flags["-l"] || t.flags["--list"]
		}
		return "reads or describes the database", allReadOrDescribe(t.stmts)
	case "mysql", "mariadb":
		return "reads the database", len(t.ops) <= 1 && (len(t.ops) == 0 || plainToken(t.ops[0])) &&
			len(t.stmts) > 0 && allReadOrDescribe(t.stmts)
	case "redis-cli", "valkey-cli", "mongosh", "mongo", "clickhouse-client", "cqlsh", "pg_dump":
		why, ok := localDBUse(prog, t) // localdb.go: only reads for these
		return why, ok
	}
	return "", false
}

// allReadOrDescribe: every statement only reads, or is one of psql's
// describe commands.
func allReadOrDescribe(stmts []string) bool {
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

// Health probes (pg_isready -h localhost, redis-cli -h 127.0.0.1 ping,
// grpcurl -plaintext localhost:50051 list) send nothing but the probe and
// are allowed off and in place as inside the sandbox (localClient in
// loopback2.go), except a grpcurl of a local control plane's port (etcd's
// 2379, the Kubernetes API), whose listing hands over what its reads
// would (hostloopback.go).

// grpcControlPlane reports whether a grpcurl probe names a control-plane
// port.
func grpcControlPlane(args []word) bool {
	if baseName(args[0].val) != "grpcurl" {
		return false
	}
	for _, a := range args[1:] {
		if _, port, ok := strings.Cut(a.val, ":"); ok && !strings.HasPrefix(a.val, "-") {
			port = port[strings.LastIndex(port, ":")+1:]
			if controlPlanePorts.has(port) {
				return true
			}
		}
	}
	return false
}

// localDBArgs reads a database client's words for the loopback allowances
// off (this file's reads, dbdevwrites_off.go's writes): every operand
// static (a glob only after a host), no environment prefix but a
// password, then the client's own reading (dbclients.go); ok false when
// any of that fails.
func (x *cmdCtx) localDBArgs(args []word) (prog string, t dbRead, ok bool) {
	for _, a := range args[1:] {
		if !a.static || a.pattern && !globAfterHost(a.val) {
			return "", t, false
		}
	}
	if x.part != nil {
		for _, as := range x.part.Assigns {
			name, _, _ := strings.Cut(as, "=")
			if !dbPasswordVars.has(name) {
				return "", t, false
			}
		}
	}
	prog = baseName(args[0].val)
	t, ok = readDBArgs(prog, args[1:]) // dbclients.go
	return prog, t, ok
}
