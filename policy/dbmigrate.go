package policy

import "strings"

// createdb and the migration tools against the sandbox's own loopback
// (localdb.go says why): createdb of a database there, dbmate
// up/migrate/status/new/create/wait/dump and golang-migrate
// up/version/create with a connection URL on the loopback and migration
// directories inside the workspace.

// createdbLocal: createdb [-h H] [-p P] [-U U] [-O OWNER] [-E ENC] [-T TEMPLATE] DBNAME [DESCRIPTION].
func createdbLocal(args []word) bool {
	t := dbTarget{local: true}
	ops := 0
	for i := 0; i < len(args); i++ {
		a := args[i].val
		if v, n := optValue(args, i, "-h", "--host"); n != 0 {
			if n < 0 {
				return false
			}
			t.host(v)
			i += n - 1
			continue
		}
		skip := false
		for _, o := range [][2]string{{"-p", "--port"}, {"-U", "--username"}, {"-O", "--owner"}, {"-E", "--encoding"}, {"-T", "--template"},
			{"-l", "--locale"}, {"", "--lc-collate"}, {"", "--lc-ctype"}, {"-D", "--tablespace"}, {"-S", "--strategy"}} {
			if v, n := optValue(args, i, o[0], o[1]); n != 0 {
				if n < 0 || !plainToken(v) {
					return false
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
		case "-w", "--no-password", "-e", "--echo":
			continue
		}
		if strings.HasPrefix(a, "-") || !plainToken(a) && ops == 0 {
			return false
		}
		ops++
	}
	return t.local && ops >= 1 && ops <= 2
}

// dbmateLocal: dbmate --url URL [--migrations-dir D] VERB, VERB one that
// creates, applies or lists (never drop, rollback or down).
func dbmateLocal(args []word) bool {
	urlSeen, verb := false, ""
	t := dbTarget{local: true}
	for i := 0; i < len(args); i++ {
		a := args[i].val
		if v, n := optValue(args, i, "-u", "--url"); n != 0 {
			h, ok := dbURLHost(v)
			if n < 0 || !ok {
				return false
			}
			t.host(h)
			urlSeen = true
			i += n - 1
			continue
		}
		if v, n := optValue(args, i, "-d", "--migrations-dir"); n != 0 {
			if n < 0 || !workspaceRelative(v) {
				return false
			}
			i += n - 1
			continue
		}
		if v, n := optValue(args, i, "-s", "--schema-file"); n != 0 {
			if n < 0 || !workspaceRelative(v) {
				return false
			}
			i += n - 1
			continue
		}
		switch a {
		case "--no-dump-schema", "--wait", "--strict", "--verbose", "-v":
			continue
		}
		if strings.HasPrefix(a, "-") {
			return false // --env (a variable's URL), --url from elsewhere
		}
		if verb == "" {
			verb = a
			continue
		}
		if verb != "new" && verb != "n" {
			return false
		}
	}
	switch verb {
	case "new", "n":
		return true // writes a migration file; reaches no server
	case "up", "migrate", "status", "create", "wait", "dump":
		return urlSeen && t.local
	}
	return false
}

// golangMigrateLocal: migrate -path DIR|-source file://DIR -database URL VERB.
func golangMigrateLocal(args []word) bool {
	dbSeen, verb := false, ""
	t := dbTarget{local: true}
	for i := 0; i < len(args); i++ {
		a := strings.Replace(args[i].val, "--", "-", 1)
		switch a {
		case "-database", "-path", "-source", "-ext", "-dir", "-format", "-tz":
			if i+1 >= len(args) {
				return false
			}
			v := args[i+1].val
			switch a {
			case "-database":
				h, ok := dbURLHost(v)
				if !ok {
					return false
				}
				t.host(h)
				dbSeen = true
			case "-path", "-dir":
				if !workspaceRelative(v) {
					return false
				}
			case "-source":
				p, ok := strings.CutPrefix(v, "file://")
				if !ok || !workspaceRelative(p) {
					return false
				}
			}
			i++
			continue
		case "-seq", "-verbose":
			continue
		}
		if strings.HasPrefix(a, "-") {
			return false
		}
		if verb == "" {
			verb = a
			continue
		}
		if !(verb == "up" && isDigits(a) || verb == "create") {
			return false
		}
	}
	switch verb {
	case "create":
		return true // writes migration files; reaches no server
	case "up", "version":
		return dbSeen && t.local
	}
	return false
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
