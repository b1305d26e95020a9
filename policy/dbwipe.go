package policy

// A database client told to empty or drop what it serves: `redis-cli
// flushall`, `redis-cli -n 0 FLUSHDB`, `mongosh --eval 'db.dropDatabase()'`,
// `psql -c 'DROP DATABASE app'`, `mysql -e 'drop database app'`. The data
// lives outside the workspace and no checkpoint brings it back: denied.
// Every other use of these clients is judged as before (netCmd, dbcli.go);
// sqlite3, whose database is a workspace file, is not among them.

// dbWipeWords are statements, in lower case, that empty or drop a database.
var dbWipeWords = []string{"flushall", "flushdb", "dropdatabase(", "drop database", "drop schema", "drop table",
	"truncate ", "dropdb", "drop_database"}

// dbWipe wraps a database client's handler.
func dbWipe(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		for _, a := range args[1:] {
			if dbWipeText(a.val) {
				x.add(Deny, RuleDatabaseDrop, args[0].val+" "+quoteShort(a.val)+" empties or drops a database, which no checkpoint restores")
				return
			}
		}
		if x.stdinWipes() { // dbstdin.go: psql <<< 'DROP TABLE users'
			x.add(Deny, RuleDatabaseDrop, args[0].val+" reads statements from its input that empty or drop a database, which no checkpoint restores")
			return
		}
		prev(x, args)
	}
}
