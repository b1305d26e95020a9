package policy

import (
	"regexp"
	"strings"
)

// p = Path('src/config.py') then p.write_text(p.read_text().replace(…)):
// a name bound once to a Path of a plain string literal, and used only
// for that file's reads and writes, writes that file. Such a write is
// judged as Path('src/config.py').write_text( is (codewrites.go). A name
// bound twice, bound by anything else (for, with, :=, +=, /) or used any
// other way leaves the code as it is, for riskyCodeToken to ask.

var pyPathBind = lazy[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^[ \t]*([A-Za-z_]\w*)[ \t]*=[ \t]*(pathlib\.)?Path\(\s*('[^'\\{}\n]*'|"[^"\\{}\n]*")\s*\)[ \t]*(#[^\n]*)?$`)
}}

// pathUses are the methods a bound name may be used with.
var pathUses = wordSet{words: []string{"read_text", "read_bytes", "write_text", "write_bytes", "exists", "is_file"}}

// boundPathWrites rewrites NAME.write_text( / .write_bytes( of names
// bound as above to pathwritten( and adds their files to targets.
func (x *cmdCtx) boundPathWrites(code string, targets *[]string) string {
	if !strings.Contains(code, "Path(") {
		return code
	}
	for _, m := range pyPathBind.get().FindAllStringSubmatch(code, -1) {
		name, lit := m[1], unquoteLit(m[3])
		uses := regexp.MustCompile(`(^|[^\w.])` + regexp.QuoteMeta(name) + `\b(\.(\w+)\()?`)
		all := uses.FindAllStringSubmatchIndex(code, -1)
		ok := len(all) >= 2
		binds := 0
		for _, u := range all {
			method := ""
			if u[6] >= 0 {
				method = code[u[6]:u[7]]
			}
			switch {
			case method != "" && pathUses.has(method):
			case method == "" && strings.HasPrefix(strings.TrimLeft(code[u[1]:], " \t"), "=") && !strings.HasPrefix(strings.TrimLeft(code[u[1]:], " \t"), "=="):
				binds++
			default:
				ok = false
			}
		}
		if !ok || binds != 1 || lit == "" {
			continue
		}
		write := regexp.MustCompile(`(^|[^\w.])` + regexp.QuoteMeta(name) + `\.write_(text|bytes)\(`)
		if !write.MatchString(code) {
			continue
		}
		*targets = append(*targets, lit)
		code = write.ReplaceAllString(code, "${1}pathwritten(")
	}
	return code
}
