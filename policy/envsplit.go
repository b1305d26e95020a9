package policy

import "strings"

// splitEnvS splits the value of env -S (--split-string) into the words GNU
// env gives the command: blanks separate words; single quotes keep text as
// is (only \\ and \' escape); double quotes and bare text take the escapes
// \" \' \\ \$ \# \_ \n \t \f \r \v and \c (stop); ${NAME} expands (only the
// braced form); a # that begins a word starts a comment. Nothing else
// expands: no ~, no globs, no ; or |. ${HOME} is home when home is not "";
// any other variable makes its word not static. ok is false for text env
// itself rejects (an unterminated quote, $NAME without braces, an unknown
// escape).
func splitEnvS(v, home string) (out []word, ok bool) {
	var cur strings.Builder
	w := word{static: true}
	inWord := false
	flush := func() {
		if inWord {
			w.val = cur.String()
			out = append(out, w)
		}
		cur.Reset()
		w = word{static: true}
		inWord = false
	}
	const (
		bare = iota
		single
		double
	)
	mode := bare
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch mode {
		case single:
			switch {
			case c == '\'':
				mode = bare
			case c == '\\' && i+1 < len(v) && (v[i+1] == '\\' || v[i+1] == '\''):
				i++
				cur.WriteByte(v[i])
			default:
				cur.WriteByte(c)
			}
			continue
		}
		switch {
		case mode == bare && (c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'):
			flush()
		case mode == bare && c == '#' && !inWord:
			flush()
			return out, true
		case mode == bare && c == '\'':
			mode, inWord = single, true
		case c == '"':
			if mode == double {
				mode = bare
			} else {
				mode, inWord = double, true
			}
		case c == '\\':
			if i+1 >= len(v) {
				return nil, false
			}
			i++
			inWord = true
			switch e := v[i]; e {
			case '"', '\'', '\\', '$', '#', ' ':
				cur.WriteByte(e)
			case '_':
				if mode == double {
					cur.WriteByte(' ')
				} else {
					flush()
				}
			case 'n':
				cur.WriteByte('\n')
			case 't':
				cur.WriteByte('\t')
			case 'f':
				cur.WriteByte('\f')
			case 'r':
				cur.WriteByte('\r')
			case 'v':
				cur.WriteByte('\v')
			case 'c':
				if mode == double {
					return nil, false
				}
				flush()
				return out, true
			default:
				return nil, false
			}
		case c == '$':
			end := strings.IndexByte(v[i:], '}')
			if i+1 >= len(v) || v[i+1] != '{' || end < 0 {
				return nil, false
			}
			name := v[i+2 : i+end]
			if !validName(name) {
				return nil, false
			}
			inWord = true
			if name == "HOME" && home != "" {
				cur.WriteString(home)
				w.tilde = w.tilde || cur.Len() == len(home)
			} else {
				w.static = false
			}
			i += end
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	if mode != bare {
		return nil, false
	}
	flush()
	return out, true
}
