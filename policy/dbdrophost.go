package policy

import "strings"

// A database drop aimed at another machine (issue 32, polcorp7 deny/data):
// `dropdb -h prod-db.example.com app`, `DATABASE_URL=$PROD_DATABASE_URL
// npx prisma migrate reset --force`. A drop of a database on this
// machine's own server asks (databasesOutsideTheCopy): a test database is
// dropped and made again all day, and the person can say so. A drop whose
// host is written on the line and is not the loopback or a socket
// directory, or whose host or connection URL comes from a variable
// nobody on the line has seen, is a shared or production database: denied,
// the reason naming the host (or the variable).

// dbTargetVar: a variable that name the database a tool connects to.
func dbTargetVar(name string) bool {
	up := strings.ToUpper(name)
	return strings.HasSuffix(up, "DATABASE_URL") || strings.HasSuffix(up, "DB_URL") || strings.HasSuffix(up, "DB_HOST") ||
		up == "PGHOST" || up == "MYSQL_HOST" || up == "REDIS_URL" || up == "MONGO_URL" || strings.HasPrefix(up, "MONGODB_URI") ||
		up == "DATABASE_HOST"
}

// remoteDatabaseDrops raises a drop that asks to deny when its target is
// not this machine.
func (c *checkEnv) remoteDatabaseDrops() {
	for i := range c.parts {
		p := &c.parts[i]
		if p.Rule != RuleDatabaseDrop || p.Decision != Ask || !outrightDrop(p.Argv) {
			continue
		}
		if where := dropTargetElsewhere(*p); where != "" {
			p.Decision = Deny
			p.Reason = "drops, flushes or resets the database on " + where + ", not this machine's: no review or checkpoint brings it back"
		}
	}
}

// dropTargetElsewhere names the non-local host a dropping part aims at,
// or the variable its target comes from; "" when every target is local
// or unnamed (the tool's own default, which asks).
func dropTargetElsewhere(p Part) string {
	for _, as := range p.Assigns {
		name, val, _ := strings.Cut(as, "=")
		if !dbTargetVar(name) {
			continue
		}
		if val == "" && assignFromVariable(p.Text, name) {
			return "a host from a variable (" + name + "=$…)"
		}
		if h, ok := dbURLHost(val); ok && !localDBHost(h) {
			return quoteShort(h)
		}
		if !strings.Contains(val, "://") && val != "" && !localDBHost(val) && strings.HasSuffix(strings.ToUpper(name), "HOST") {
			return quoteShort(val)
		}
	}
	argv := p.Argv
	for i, a := range argv {
		if h, ok := dbURLHost(a); ok && !localDBHost(h) {
			return quoteShort(h)
		}
		var h string
		switch {
		case (a == "-h" || a == "--host") && i+1 < len(argv):
			h = argv[i+1]
		case strings.HasPrefix(a, "--host="):
			h = a[len("--host="):]
		case strings.HasPrefix(a, "-h") && len(a) > 2 && !strings.HasPrefix(a, "--") && baseName(argv[0]) == "dropdb":
			h = a[2:]
		default:
			continue
		}
		if !localDBHost(h) {
			return quoteShort(h)
		}
	}
	return ""
}

// assignFromVariable: the line assigns NAME from an expansion (NAME=$X,
// NAME="${X}", NAME=$(…)).
func assignFromVariable(text, name string) bool {
	for _, pre := range []string{name + "=$", name + `="$`, name + "='$"} {
		if strings.Contains(text, pre) {
			return !strings.Contains(text, name+"='$") // '$X' is a literal
		}
	}
	return false
}

// dropdbCmd: dropdb [-h HOST] … DBNAME. A host from a variable or another
// machine is denied; on this machine it asks (databasesOutsideTheCopy).
func dropdbCmd() handler {
	return func(x *cmdCtx, args []word) {
		for i := 1; i < len(args); i++ {
			a := args[i]
			var h word
			switch {
			case (a.val == "-h" || a.val == "--host") && a.static && i+1 < len(args):
				h = args[i+1]
				i++
			case a.static && strings.HasPrefix(a.val, "--host="):
				h = word{val: a.val[len("--host="):], static: true}
			case a.static && strings.HasPrefix(a.val, "-h") && !strings.HasPrefix(a.val, "--") && len(a.val) > 2:
				h = word{val: a.val[2:], static: true}
			case strings.HasPrefix(a.val, "--host=") || strings.HasPrefix(a.val, "-h") && len(a.val) > 2 && !a.static:
				h = word{val: a.val, static: false}
			default:
				continue
			}
			if !h.static {
				x.add(Deny, RuleDatabaseDrop, args[0].val+" drops a database on a host from a variable ("+quoteShort(h.val)+"), which nobody on this line has seen: not this machine's")
				return
			}
			if !localDBHost(h.val) {
				x.add(Deny, RuleDatabaseDrop, args[0].val+" drops a database on "+quoteShort(h.val)+", not this machine's: no review or checkpoint brings it back")
				return
			}
		}
		x.add(Ask, RuleDatabaseDrop, args[0].val+" drops a database, which lives outside the workspace: no review or checkpoint brings it back")
	}
}

// outrightDrop: the part drops or empties a database outright (dropdb,
// db:drop, migrate reset, --force-reset, migrate:fresh, flush), not a
// schema load or setup, which asks wherever it points.
func outrightDrop(argv []string) bool {
	if len(argv) > 0 && baseName(argv[0]) == "dropdb" || dropVerb(argv) {
		return true
	}
	for _, a := range argv {
		switch a {
		case "reset", "--force-reset", "migrate:fresh", "migrate:reset", "db:wipe", "flush", "reset_db", "drop":
			return true
		}
	}
	return false
}
