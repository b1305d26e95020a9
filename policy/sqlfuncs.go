package policy

import (
	"net/url"
	"strings"
)

// SQL function calls, read as SQL tokens. A function name is an identifier
// (bare, or quoted "…", `…`, […]) followed by optional blanks and comments
// and then "(": `edit ('', 'sh')`, `EDIT/**/(…)` and `"edit"(…)` are all the
// same call. Only the functions below, which compute from their arguments
// and touch nothing else, let a statement count as read-only; everything
// else (sqlite3's edit, readfile, fsdir, zipfile; PostgreSQL's lo_unlink,
// setval, pg_terminate_backend, …) makes the statement ask.

// sqlHarmless are functions and keywords that may stand before "(".
var sqlHarmless = wordSet{words: []string{
	// keywords that take a parenthesised list or subquery
	"in", "exists", "as", "from", "join", "on", "and", "or", "not", "where", "when", "then", "else", "over", "using",
	"filter", "having", "by", "select", "values", "between", "is", "like", "all", "any", "some", "union", "except",
	"intersect", "case", "limit", "offset", "distinct", "within", "group", "partition", "array", "row",
	// aggregates and scalar functions that only compute
	"count", "sum", "avg", "min", "max", "total", "group_concat", "string_agg", "array_agg", "length", "lower", "upper",
	"substr", "substring", "trim", "ltrim", "rtrim", "coalesce", "ifnull", "nullif", "abs", "round", "typeof", "cast",
	"hex", "quote", "instr", "printf", "format", "date", "time", "datetime", "julianday", "strftime", "unixepoch",
	"json", "json_extract", "json_array_length", "json_object", "json_array", "json_type", "json_each", "json_tree",
	"char", "unicode", "iif", "likely", "unlikely", "sqlite_version", "row_number", "rank", "dense_rank", "lag", "lead",
	"now", "version", "current_database", "current_schema", "to_char", "to_date", "date_trunc", "extract",
	"pg_size_pretty", "pg_relation_size", "pg_total_relation_size", "pg_database_size", "format_type", "pg_typeof",
	"greatest", "least", "concat", "position", "split_part", "regexp_replace", "left", "right", "floor", "ceil",
	// sqlite pragmas that only describe
	"table_info", "table_xinfo", "index_list", "index_info", "index_xinfo", "foreign_key_list", "integrity_check",
	"quick_check", "pragma_table_info", "pragma_index_list", "pragma_index_info", "pragma_foreign_key_list",
}}

// sqlCalls returns the lower-cased names of every identifier in the
// statement that stands before "(", and its string literals.
func sqlCalls(st string) (calls, lits []string) {
	var last string // the previous token, if it was a name
	i := 0
	for i < len(st) {
		c := st[i]
		switch {
		case c == '-' && i+1 < len(st) && st[i+1] == '-':
			for i < len(st) && st[i] != '\n' {
				i++
			}
			continue // a comment keeps the name pending
		case c == '/' && i+1 < len(st) && st[i+1] == '*':
			j := strings.Index(st[i+2:], "*/")
			if j < 0 {
				i = len(st)
			} else {
				i += j + 4
			}
			continue
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '(':
			if last != "" {
				calls = append(calls, strings.ToLower(last))
			}
			last = ""
			i++
		case c == '\'':
			j := i + 1
			var b strings.Builder
			for j < len(st) {
				if st[j] == '\'' {
					if j+1 < len(st) && st[j+1] == '\'' {
						b.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(st[j])
				j++
			}
			lits = append(lits, b.String())
			last = ""
			i = j + 1
		case c == '"' || c == '`' || c == '[':
			end := byte('"')
			if c == '`' {
				end = '`'
			} else if c == '[' {
				end = ']'
			}
			j := strings.IndexByte(st[i+1:], end)
			if j < 0 {
				last = st[i+1:]
				i = len(st)
			} else {
				last = st[i+1 : i+1+j]
				i += j + 2
			}
		case c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80:
			j := i
			for j < len(st) && (st[j] == '_' || st[j] == '$' || st[j] >= 'a' && st[j] <= 'z' || st[j] >= 'A' && st[j] <= 'Z' ||
				st[j] >= '0' && st[j] <= '9' || st[j] >= 0x80) {
				j++
			}
			last = st[i:j]
			i = j
		default:
			last = ""
			i++
		}
	}
	return calls, lits
}

// sqlCallsHarmless: every call in the statement is a known-harmless one.
func sqlCallsHarmless(st string) bool {
	calls, _ := sqlCalls(st)
	for _, f := range calls {
		// schema-qualified names (main.edit, pg_catalog.setval) count by their last part
		if !sqlHarmless.has(f) {
			return false
		}
	}
	return true
}

// sqliteFileFuncs are sqlite3 shell functions that read or write the file
// their first argument names.
var sqliteFileFuncs = wordSet{words: []string{"readfile", "fsdir", "zipfile", "writefile", "lsmode", "sqlar_uncompress"}}

// sqliteFilePaths judges the string literals of a statement that calls a
// file function as the reads (or, for writefile, writes) they are.
func (x *cmdCtx) sqliteFilePaths(st string) {
	calls, lits := sqlCalls(st)
	write, file := false, false
	for _, f := range calls {
		if sqliteFileFuncs.has(f) {
			file = true
			write = write || f == "writefile"
		}
	}
	if !file {
		return
	}
	for _, l := range lits {
		if strings.HasPrefix(l, "/") || strings.HasPrefix(l, "~") || strings.HasPrefix(l, ".") || strings.Contains(l, "/") {
			x.access(word{val: l, static: true}, write)
		}
	}
}

// sqliteURIPath is the file a sqlite3 `file:` URI names, its query dropped.
func sqliteURIPath(v string) string {
	rest, ok := strings.CutPrefix(v, "file:")
	if !ok {
		return v
	}
	rest, _, _ = strings.Cut(rest, "?")
	rest, _, _ = strings.Cut(rest, "#")
	if strings.HasPrefix(rest, "//") {
		// file://host/path: the authority is empty or localhost
		rest = rest[2:]
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			rest = rest[i:]
		} else {
			rest = ""
		}
	}
	if rest == "" {
		return "."
	}
	return urlUnescapePath(rest)
}

// urlUnescapePath undoes %XX escapes; a bad escape is kept as written.
func urlUnescapePath(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}
