package policy

import (
	"strings"
)

// Database command-line clients, read-only. An agent inspects a schema
// with `sqlite3 app.db .schema` or `psql -X -c "\dt"`. Each statement the
// line gives the client is judged by what it does:
//
//   - a query that only reads (SELECT, PRAGMA, EXPLAIN, WITH … SELECT, and
//     the clients' describe commands: sqlite3 .schema/.tables/.indexes,
//     psql \d*, \l, \dn, \conninfo) is allowed; sqlite3's file must be in
//     the workspace, and psql, which reaches a server the sandbox's
//     network limits, only inside the sandbox;
//   - a shell escape (sqlite3 .shell/.system, psql \!) runs its text as a
//     command, judged as shell (so `.shell rm -rf ~` is denied);
//   - anything else (writes, ATTACH, .output, .import, .load, \copy, \o,
//     \i, load_extension, writefile) goes to the earlier handler, which
//     asks. With no statement on the line the client reads stdin: asked.

// sqlReadOnly: a statement that only reads.
func sqlReadOnly(st string) bool {
	t := strings.ToLower(strings.TrimSpace(st))
	t = strings.TrimSuffix(t, ";")
	if strings.Contains(t, ";") {
		for _, p := range strings.Split(t, ";") {
			if strings.TrimSpace(p) != "" && !sqlReadOnly(p) {
				return false
			}
		}
		return true
	}
	for _, bad := range []string{"load_extension", "writefile", "readfile", "edit(", "fts3_tokenizer", "attach", "into outfile",
		"into dumpfile", "pg_read", "pg_ls_dir", "lo_import", "lo_export", "copy ", "dblink", "set ", "insert", "update", "delete",
		"drop", "create", "alter", "replace", "vacuum", "reindex", "truncate", "grant", "revoke", "pragma writable_schema"} {
		if strings.Contains(t, bad) {
			return false
		}
	}
	if !sqlCallsHarmless(t) {
		return false
	}
	for _, ok := range []string{"select ", "pragma ", "explain ", "with ", "show "} {
		if strings.HasPrefix(t, ok) {
			return !strings.HasPrefix(t, "pragma ") || !strings.Contains(t, "=")
		}
	}
	return false
}

// sqlLocalChange: a statement that plainly changes the run's own
// database (localdb.go): CREATE/ALTER of a database, schema, table, index,
// view, sequence or type, INSERT, UPDATE, DELETE and transaction control,
// with nothing in it that reaches outside the server
// or runs code (COPY, PROGRAM, dblink, a foreign server, an extension, a
// function or trigger body, a file function, roles and settings). DROP
// and TRUNCATE are not here: they stay with the database-drop rules
// (dbwipe.go), which ask or deny in every mode.
func sqlLocalChange(st string) bool {
	t := strings.ToLower(strings.TrimSpace(st))
	t = strings.TrimSuffix(t, ";")
	if strings.Contains(t, ";") {
		for _, p := range strings.Split(t, ";") {
			if p = strings.TrimSpace(p); p != "" && !sqlReadOnly(p) && !sqlLocalChange(p) {
				return false
			}
		}
		return true
	}
	if strings.ContainsAny(t, "\\`$") {
		return false
	}
	for _, bad := range []string{"lo_", "pg_read", "pg_ls", "pg_file", "pg_stat_file", "dblink", "fdw", "outfile", "dumpfile",
		"infile", "load_", "writefile", "readfile"} {
		if strings.Contains(t, bad) {
			return false
		}
	}
	for _, bad := range []string{"program", "copy", "foreign", "server", "extension", "function", "procedure", "trigger",
		"language", "load", "attach", "role", "user", "grant", "revoke", "password", "system", "rule", "execute", "do",
		"plugin", "soname", "subscription", "publication", "drop", "truncate", "owner", "policy", "call", "handler"} {
		if containsWord(t, bad) {
			return false
		}
	}
	f := strings.Fields(t)
	if len(f) == 0 {
		return false
	}
	switch f[0] {
	case "insert", "update", "delete", "begin", "commit", "rollback", "start":
		return true
	case "create", "alter":
		if len(f) < 2 {
			return false
		}
		switch f[1] {
		case "database", "schema", "table", "index", "unique", "view", "materialized", "sequence", "type", "temporary", "temp":
			return true
		}
	}
	return false
}

// sqliteDotPath is the file argument of a dot-command: its last word,
// unquoted ("-x" options and "|cmd" pipes are not paths).
func sqliteDotPath(rest string) string {
	f := strings.Fields(rest)
	if len(f) == 0 {
		return ""
	}
	p := strings.Trim(f[len(f)-1], `"'`)
	if strings.HasPrefix(p, "-") || strings.HasPrefix(p, "|") {
		return ""
	}
	return p
}

// sqliteDot are sqlite3's dot-commands that only print.
var sqliteDot = wordSet{words: []string{".schema", ".tables", ".indexes", ".indices", ".databases", ".dbinfo", ".fullschema",
	".headers", ".mode", ".show", ".help", ".width", ".nullvalue", ".separator", ".timer", ".stats", ".eqp", ".dump", ".lint"}}

// sqlite3Cmd: sqlite3 [options] FILE [STATEMENT...].
func sqlite3Cmd(x *cmdCtx, args []word) {
	var file *word
	var stmts []word
	for i := 1; i < len(args); i++ {
		a := args[i]
		v := a.val
		if !a.static {
			x.add(Ask, RuleUnknownCommand, "sqlite3 with an argument the policy cannot read")
			return
		}
		if file == nil && strings.HasPrefix(v, "-") {
			switch strings.TrimLeft(v, "-") {
			case "readonly", "header", "noheader", "column", "csv", "json", "line", "list", "box", "markdown", "table", "html",
				"bail", "batch", "echo", "version", "help", "safe", "nofollow", "quote", "tabs", "ascii":
			case "separator", "nullvalue", "newline":
				i++
			case "cmd":
				if i+1 < len(args) {
					i++
					stmts = append(stmts, args[i])
				}
			default:
				x.add(Ask, RuleUnknownCommand, "sqlite3 "+v+" is an option the policy does not know")
				return
			}
			continue
		}
		if file == nil {
			f := a
			f.val = sqliteURIPath(f.val) // file:PATH?mode=ro names PATH
			file = &f
			continue
		}
		stmts = append(stmts, a)
	}
	if file == nil || len(stmts) == 0 {
		x.add(Ask, RuleShellStdin, "sqlite3 reads statements from its input, which nobody has seen")
		return
	}
	for _, s := range stmts {
		t := strings.TrimSpace(s.val)
		switch {
		case strings.HasPrefix(t, ".shell ") || strings.HasPrefix(t, ".system "):
			_, cmd, _ := strings.Cut(t, " ")
			x.add(Ask, RuleUnknownCommand, "sqlite3 runs a shell command")
			sub := x.cw.copy()
			x.c.shell(cmd, &sub, x.s.depth+1, "sqlite3 .shell")
			return
		case strings.HasPrefix(t, "."):
			name, rest, _ := strings.Cut(t, " ")
			switch name {
			case ".output", ".once", ".save", ".backup", ".excel", ".log":
				// the file it names is written: judged as the write it is
				if p := sqliteDotPath(rest); p != "" {
					x.writeStr(p)
				}
			case ".read", ".import", ".open", ".restore", ".load":
				if p := sqliteDotPath(rest); p != "" {
					x.readStr(p)
				}
			}
			if !sqliteDot.has(name) {
				x.add(Ask, RuleUnknownCommand, "sqlite3 "+name+" reads, writes or loads more than the database")
				return
			}
		case !sqlReadOnly(t):
			x.sqliteFilePaths(t)
			// A statement that may change the database writes its file:
			// judged as the write it is, so a database outside the
			// workspace (~/Library/Messages/chat.db) is a write outside.
			x.write(*file)
			x.add(Ask, RuleUnknownCommand, "sqlite3 runs a statement that may change the database or reach files")
			return
		}
	}
	x.add(Allow, RuleReadOnly, "sqlite3 reads the project's database")
	x.read(*file)
}

// psqlMeta are psql's backslash commands that only describe.
func psqlMeta(t string) bool {
	name, _, _ := strings.Cut(t, " ")
	name = strings.TrimRight(name, "+S")
	switch {
	case name == `\l`, name == `\conninfo`, name == `\dt`, name == `\di`, name == `\dn`, name == `\df`, name == `\dv`,
		name == `\ds`, name == `\du`, name == `\dx`, name == `\d`, name == `\dT`, name == `\dm`, name == `\dE`, name == `\encoding`:
		return true
	}
	return false
}

// psqlCmd judges psql's -c statements; its other handler asks for the rest.
func psqlCmd(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		var stmts []string
		ok := true
		for i := 1; i < len(args); i++ {
			a := args[i]
			v := a.val
			if !a.static {
				ok = false
				break
			}
			switch {
			case v == "-c" || v == "--command":
				if i+1 >= len(args) || !args[i+1].static {
					ok = false
					break
				}
				i++
				stmts = append(stmts, args[i].val)
			case strings.HasPrefix(v, "--command="):
				stmts = append(stmts, strings.TrimPrefix(v, "--command="))
			case v == "-X" || v == "-A" || v == "-t" || v == "-q" || v == "-x" || v == "--no-psqlrc" || v == "--no-align" ||
				v == "--tuples-only" || v == "--quiet" || v == "-w" || v == "--no-password" || v == "--expanded":
			case v == "--pset=pager=off" || v == "-P" && i+1 < len(args) && args[i+1].val == "pager=off":
				if v == "-P" {
					i++
				}
			case v == "-h" || v == "--host":
				if i+1 >= len(args) || !loopbackHost(args[i+1].val) && !strings.HasPrefix(args[i+1].val, "/") { // or a socket dir
					ok = false
				}
				i++
			default:
				ok = false
			}
		}
		for _, s := range stmts {
			if low := strings.ToLower(s); containsWord(low, "copy") && containsWord(low, "program") {
				// COPY … TO/FROM PROGRAM 'cmd' runs cmd as the server's user, outside any sandbox
				x.add(Deny, RuleUnknownCommand, "psql COPY … PROGRAM runs a shell command on the database server")
				ok = false
			}
			if cmd, isShell := strings.CutPrefix(strings.TrimSpace(s), `\!`); isShell {
				sub := x.cw.copy()
				x.c.shell(strings.TrimSpace(cmd), &sub, x.s.depth+1, `psql \!`)
				ok = false
			} else if !(strings.HasPrefix(strings.TrimSpace(s), `\`) && psqlMeta(strings.TrimSpace(s)) || sqlReadOnly(s)) {
				ok = false
			}
		}
		if !ok || len(stmts) == 0 || !x.c.sandbox {
			prev(x, args)
			return
		}
		x.add(Allow, RuleReadOnly, "psql describes or reads the database through the sandbox's network")
	}
}
