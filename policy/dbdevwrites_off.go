package policy

import (
	"io"
	"net/url"
	"os"
	"strings"
)

// A dev loop's writes to a development or test database on the loopback,
// with the sandbox off (issue 32, off27): `PGPASSWORD=postgres psql -h
// localhost -U postgres -c 'create database app_test'`, `psql -h
// 127.0.0.1 -U dev -d app_dev -f db/schema.sql`, `createdb -h localhost
// app_test`, `dbmate --url postgres://…@localhost/app_test up`, `migrate
// -path db/migrations -database postgres://localhost:5432/app_test up`.
// Reads of the loopback are allowed off already (dbloopback_off.go); a
// write there changes the person's server, so it is allowed only where a
// dev loop writes: a database whose name says it is the project's
// development or test database (devDBName: app_test, app_dev,
// myapp-development, test), on a loopback host written on the line (PGHOST,
// ~/.my.cnf and pg_service.conf may name production otherwise), with no
// environment prefix but a password.
//
// What may be written is what a schema, a seed or a forward migration
// writes: sqlLocalChange's statements (CREATE, ALTER, INSERT, UPDATE …
// WHERE) and reads, never a DELETE, an UPDATE without WHERE, a drop or a
// truncate (those ask or are denied, dbwipe.go), nor anything that reaches
// outside the server (COPY … PROGRAM, an extension, a function, a
// language, a role, a file function: sqlLocalChange refuses them). CREATE
// DATABASE of a development or test name is allowed on any database of
// the loopback server: it only adds. psql -f (and mysql's statements)
// from a workspace file are read and judged statement by statement; a
// file that is missing, large, outside the workspace, written earlier on
// the line, or holding a psql backslash command asks. In place (sentinel
// exec and mcp) every write still asks.

// devDBWords are the name parts that mark a development or test database.
var devDBWords = wordSet{words: []string{"test", "tests", "testing", "dev", "develop", "development", "local", "ci", "e2e", "spec"}}

// devDBName: a database name one of whose parts (split at _ - .) is a
// devDBWords word.
func devDBName(n string) bool {
	n = strings.ToLower(strings.Trim(n, `"'`+"`"))
	if n == "" || !plainToken(n) {
		return false
	}
	for _, p := range strings.FieldsFunc(n, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
		if devDBWords.has(p) {
			return true
		}
	}
	return false
}

// localDBDevWriteOff allows a dev loop's write to a development or test
// database on the loopback with the sandbox off (see above); it reports
// whether it did.
func (x *cmdCtx) localDBDevWriteOff(args []word) bool {
	if x.c.sandbox || x.c.inPlace || x.writtenBefore() {
		return false
	}
	prog, t, ok := x.localDBArgs(args) // dbloopback_off.go
	if ok && prog == "psql" && len(t.ops) > 0 {
		ok = t.dbname(t.ops[0]) // a URL or conninfo names the host
	}
	if !ok || !t.local || !t.hostNamed {
		return false
	}
	names := connectedDBNames(prog, args[1:], &t)
	var why string
	switch prog {
	case "psql", "mysql", "mariadb":
		if len(t.ops) > 2 || prog != "psql" && len(t.ops) > 1 {
			return false
		}
		stmts := t.stmts
		for _, f := range t.files {
			fs, ok := x.workspaceStatements(f)
			if !ok {
				return false
			}
			stmts = append(stmts, fs...)
		}
		if len(stmts) == 0 || !devStatements(stmts) {
			return false
		}
		if !onlyCreatesDevDatabases(stmts) && !allDevNames(names) {
			return false
		}
		why = "writes a development or test database"
	case "createdb":
		if len(t.ops) < 1 || len(t.ops) > 2 || !devDBName(t.ops[0]) {
			return false
		}
		why = "creates a development or test database"
	case "dbmate":
		if !dbmateVerb(&t) || len(t.ops) == 0 || t.ops[0] == "new" || t.ops[0] == "n" || !allDevNames(names) {
			return false
		}
		why = "applies the project's migrations to a development or test database"
	case "migrate":
		if !golangMigrateVerb(&t) || len(t.ops) == 0 || t.ops[0] == "create" || !allDevNames(names) {
			return false
		}
		why = "applies the project's migrations to a development or test database"
	default:
		return false
	}
	x.add(Allow, RuleLocalHealth, args[0].val+" "+why+" on a server on "+x.loopbackWhere())
	for _, f := range t.files {
		x.readStr(f) // judged as the reads they are
	}
	for _, f := range t.outs {
		x.writeStr(f)
	}
	return true
}

func allDevNames(names []string) bool {
	for _, n := range names {
		if !devDBName(n) {
			return false
		}
	}
	return len(names) > 0
}

// connectedDBNames are the databases the client connects to: psql's -d
// and first operand, mysql's -D and operand, a connection URL's path, a
// conninfo's dbname.
func connectedDBNames(prog string, args []word, t *dbRead) []string {
	var out []string
	add := func(v string) {
		if strings.Contains(v, "://") {
			if u, err := url.Parse(v); err == nil && strings.Trim(u.Path, "/") != "" {
				out = append(out, strings.Trim(u.Path, "/"))
			}
			return
		}
		if strings.Contains(v, "=") {
			for _, kv := range strings.Fields(v) {
				if k, val, _ := strings.Cut(kv, "="); k == "dbname" {
					out = append(out, val)
				}
			}
			return
		}
		out = append(out, v)
	}
	flag := map[string]bool{"-d": prog == "psql", "--dbname": prog == "psql", "-D": prog != "psql", "--database": prog != "psql",
		"--url": prog == "dbmate", "-u": prog == "dbmate", "-database": prog == "migrate"}
	for i := 0; i < len(args); i++ {
		v := args[i].val
		if flag[v] && i+1 < len(args) {
			add(args[i+1].val)
			i++
			continue
		}
		if k, val, ok := strings.Cut(v, "="); ok && flag[k] {
			add(val)
		}
	}
	if (prog == "psql" || prog == "mysql" || prog == "mariadb") && len(t.ops) > 0 {
		add(t.ops[0])
	}
	return out
}

// devStatements: every statement reads or is a plain change
// (sqlLocalChange), never a DELETE or an UPDATE without WHERE.
func devStatements(stmts []string) bool {
	for _, s := range stmts {
		for _, p := range strings.Split(s, ";") {
			l := strings.ToLower(strings.TrimSpace(p))
			if l == "" {
				continue
			}
			if strings.HasPrefix(l, `\`) || !sqlReadOnly(l) && !sqlLocalChange(l) {
				return false
			}
			for _, w := range []string{"engine", "connection", "directory", "tablespace"} {
				if containsWord(l, w) {
					return false // a MySQL FEDERATED or CONNECT table, a data directory: storage outside the server
				}
			}
			f := strings.Fields(l)
			if f[0] == "delete" || f[0] == "update" && !containsWord(l, "where") {
				return false
			}
			if f[0] == "create" && len(f) > 1 && f[1] == "database" && !onlyCreatesDevDatabases([]string{l}) {
				return false // a database of another name: the person's server gains one they did not ask for
			}
		}
	}
	return true
}

// onlyCreatesDevDatabases: every statement is CREATE DATABASE [IF NOT
// EXISTS] of a development or test name.
func onlyCreatesDevDatabases(stmts []string) bool {
	n := 0
	for _, s := range stmts {
		for _, p := range strings.Split(s, ";") {
			f := strings.Fields(strings.ToLower(p))
			if len(f) == 0 {
				continue
			}
			if len(f) < 3 || f[0] != "create" || f[1] != "database" {
				return false
			}
			name := f[2]
			if len(f) >= 6 && f[2] == "if" && f[3] == "not" && f[4] == "exists" {
				name = f[5]
			}
			if !devDBName(name) {
				return false
			}
			n++
		}
	}
	return n > 0
}

// workspaceStatements reads a statements file of the workspace: a
// regular file, not a link, at most 256 KiB, its -- comment lines left out.
func (x *cmdCtx) workspaceStatements(f string) ([]string, bool) {
	ps := x.resolve(word{val: f, static: true})
	if len(ps) != 1 || !within(ps[0], x.c.ws) {
		return nil, false
	}
	fi, err := os.Lstat(ps[0])
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 256<<10 {
		return nil, false
	}
	fh, err := os.Open(ps[0])
	if err != nil {
		return nil, false
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, 256<<10+1))
	if err != nil || len(b) > 256<<10 || strings.Contains(string(b), "/*") {
		return nil, false // block comments may hide a statement's words
	}
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "--") {
			continue // a comment line
		}
		if strings.Contains(l, "--") {
			return nil, false // a comment after a statement, or -- inside a string: not read
		}
		lines = append(lines, l)
	}
	return strings.Split(strings.Join(lines, "\n"), ";"), true
}
