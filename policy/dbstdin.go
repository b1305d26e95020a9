package policy

import "strings"

// Database clients fed their statements on stdin (issue 32, pol23 item 4):
// `psql <<< 'DROP TABLE users;'`, `redis-cli <<< FLUSHALL`, `mongosh
// <<'EOF' … db.dropDatabase() … EOF`. A here-string or here-document is
// text in plain sight, so it is judged as the same statement given with
// -c, -e or --eval is: a drop or an empty is denied (dbwipe.go), whatever
// host the client reaches. Every other use keeps its judgment: a client
// reading a pipe or a file (`echo … | psql -h prod`, `psql -f x.sql -h
// prod`) asks as a client of a host nobody named does, and a remote host
// is never allowed (net.tool; the loopback reads of dbclients.go are
// local only).

// dbWipeText reports a statement, in any case, that empties or drops a
// database: a word of dbWipeWords alone (flushall) or inside a statement.
func dbWipeText(v string) bool {
	l := strings.ToLower(v)
	for _, w := range dbWipeWords {
		if l == w || strings.Contains(l, w) && strings.ContainsAny(l, " (;") {
			return true
		}
	}
	return false
}

// stdinWipes reports whether the command's here-string or here-document
// holds a statement that empties or drops a database.
func (x *cmdCtx) stdinWipes() bool {
	if x.stdin == nil {
		return false
	}
	for _, line := range strings.FieldsFunc(*x.stdin, func(r rune) bool { return r == '\n' || r == ';' }) {
		if dbWipeText(strings.TrimSpace(line)) {
			return true
		}
	}
	return false
}
