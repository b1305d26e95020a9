package policy

import "testing"

// TestDBClientsStdinAndRemoteHosts: a drop or an empty a database client
// reads from a here-string or here-document is denied as the same statement
// given with -c/-e/--eval is; a client of a remote host is never allowed,
// however its statements arrive (issue 32, pol23 item 4).
func TestDBClientsStdinAndRemoteHosts(t *testing.T) {
	var rows []onOff
	rows = append(rows, sameOnOff(Deny,
		"psql <<< 'DROP TABLE users;'",
		"psql -h db.prod.example.com <<< 'drop table users'",
		"mysql -h db.prod.example.com <<< 'DROP DATABASE app'",
		"redis-cli <<< FLUSHALL",
		"redis-cli -h cache.prod.example.com <<< 'flushdb'",
		"mongosh <<< 'db.dropDatabase()'",
		"mongosh mongodb://localhost/app <<< 'db.dropDatabase()'",
		"psql <<'EOF'\nselect 1;\nTRUNCATE users;\nEOF",
		"mongosh --quiet <<'EOF'\nuse app\ndb.dropDatabase()\nEOF",
	)...)
	rows = append(rows, sameOnOff(Ask,
		"echo 'db.dropDatabase()' | mongo --host prod.example.com",
		"echo 'db.dropDatabase()' | mongosh mongodb://prod.example.com/app",
		"mongosh --host prod.example.com --eval 'db.users.find()'",
		"psql -h db.prod.example.com -c 'select 1'",
		"psql postgres://u:p@db.prod.example.com/app -c 'select 1'",
		"echo 'DROP TABLE users' | psql -h db.prod.example.com",
		"cat drop.sql | psql -h db.prod.example.com",
		"psql -h db.prod.example.com -f migrate.sql",
		"psql --host=db.prod.example.com <<< 'select 1'",
		"redis-cli -h cache.prod.example.com get foo",
		"echo FLUSHALL | redis-cli -h cache.prod.example.com",
		"mysql -h db.prod.example.com < dump.sql",
		"echo 'DROP TABLE users;' | psql",
	)...)
	rows = append(rows, sameOnOff(Deny,
		"mongosh --host prod.example.com --eval 'db.dropDatabase()'",
		"psql -h db.prod.example.com -c 'DROP TABLE users'",
		"redis-cli -h cache.prod.example.com FLUSHALL",
		"mysql -h db.prod.example.com -e 'DROP DATABASE app'",
	)...)
	checkOnOff(t, rows)
}
