package policy

import "strings"

// Shell strings in Perl, Ruby and PHP code that are not call arguments:
// backticks (`rm -rf ~`), Perl's qx{…} with any delimiter, Ruby's %x(…),
// and system/exec given a string without parentheses (system "rm -rf ~").
// Each is run by /bin/sh, so it is judged as a shell line (codeRisks), as
// system("…") is.

// shellQuoting reports a language whose backticks run a shell: Perl,
// Ruby and PHP (python3.12's and ruby3.2's versions count as theirs).
func shellQuoting(name string) bool {
	switch interpBase(name) {
	case "perl", "ruby", "php", "jruby", "truffleruby":
		return true
	}
	return false
}

// qxClose gives the closing delimiter of qx/%x's opening one.
func qxClose(open byte) (byte, bool) {
	switch open {
	case '{':
		return '}', true
	case '(':
		return ')', true
	case '[':
		return ']', true
	case '<':
		return '>', true
	}
	if open > ' ' && open < 0x7f && !isIdent(open) && open != '=' && open != ',' && open != ';' {
		return open, true // qx/…/, qx!…!, qx|…|
	}
	return 0, false
}

// shellStringsInCode returns the shell strings the forms above spell, at
// most 16.
func shellStringsInCode(code string) []string {
	out := backquoted(code, "`", 16)
	// qx and %x.
	for _, op := range []string{"qx", "%x"} {
		for from := 0; len(out) < 16; {
			i := strings.Index(code[from:], op)
			if i < 0 {
				break
			}
			at := from + i
			from = at + len(op)
			if op == "qx" && at > 0 && (isIdent(code[at-1]) || code[at-1] == '$' || code[at-1] == '@' || code[at-1] == '%') {
				continue // a name holding qx, or a variable
			}
			k := from
			for k < len(code) && (code[k] == ' ' || code[k] == '\t') && op == "qx" {
				k++
			}
			if k >= len(code) {
				break
			}
			closer, ok := qxClose(code[k])
			if !ok || op == "qx" && k < len(code) && isIdent(code[k]) {
				continue
			}
			end := strings.IndexByte(code[k+1:], closer)
			if end < 0 {
				break
			}
			out = append(out, code[k+1:k+1+end])
			from = k + 1 + end + 1
		}
	}
	// system "…" / exec "…" (Perl, Ruby) without parentheses.
	eachCall(code, []string{"system ", "exec ", "system\t", "exec\t"}, func(args string) bool {
		s := strings.TrimLeft(args, " \t")
		if s == "" || s[0] != '"' && s[0] != '\'' {
			return true
		}
		// One string is a shell line; a list (exec "git", "push", …)
		// is an argv (homeref.go), up to the statement's end.
		if line, ok := spawnLine(s[:statementEnd(s)]); ok && strings.TrimSpace(line) != "" {
			out = append(out, line)
		}
		return len(out) < 16
	})
	return out
}

// statementEnd is the index of the ; or newline that ends the statement
// s begins, outside quotes, or len(s).
func statementEnd(s string) int {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\'':
			if end := strings.IndexByte(s[i+1:], c); end >= 0 {
				i += end + 1
			}
		case ';', '\n':
			return i
		}
	}
	return len(s)
}

// backquoted returns the texts code holds between open and the next
// backtick (open is "`" for backticks, "$`" for a JavaScript shell
// template), at most max of them.
func backquoted(code, open string, max int) []string {
	var out []string
	for rest := code; len(out) < max; {
		i := strings.Index(rest, open)
		if i < 0 {
			break
		}
		rest = rest[i+len(open):]
		j := strings.IndexByte(rest, '`')
		if j < 0 {
			break
		}
		out = append(out, rest[:j])
		rest = rest[j+1:]
	}
	return out
}
