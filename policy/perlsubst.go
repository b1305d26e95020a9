package policy

import "strings"

// perl -pi -e 's/old/new/g' FILES is sed -i with Perl's regular
// expressions: it rewrites the files in place and runs nothing else. It
// is judged as writes of its files when the code is a single s/// with
// no code in it: no /e or /ee flag, no (?{ }) or (??{ }) in the pattern,
// no array or expression interpolation (@…, ${…}) and in the
// replacement no variable but the match's own ($1…$9, $&). Anything else
// is inline code (interpreter).

// perlSubstInPlace judges perl's words rest and reports whether it was
// such a substitution.
func perlSubstInPlace(x *cmdCtx, rest []word) bool {
	var code string
	haveCode, p, inPlace := false, false, false
	i := 0
	for ; i < len(rest); i++ {
		a := rest[i]
		if !a.static {
			return false
		}
		v := a.val
		if v == "--" {
			i++
			break
		}
		if !strings.HasPrefix(v, "-") || v == "-" {
			break
		}
		for k := 1; k < len(v); k++ {
			switch v[k] {
			case 'p':
				p = true
			case 'w':
			case 'i':
				if ext := v[k+1:]; ext != "" && !plainToken(ext) {
					return false
				}
				inPlace, k = true, len(v)
			case 'e':
				if haveCode || k != len(v)-1 || i+1 >= len(rest) || !rest[i+1].static {
					return false
				}
				i++
				code, haveCode = rest[i].val, true
			default:
				return false
			}
		}
	}
	files := rest[i:]
	if !p || !inPlace || !haveCode || len(files) == 0 || !perlPlainSubst(code) {
		return false
	}
	for _, f := range files {
		if !f.static || strings.HasPrefix(f.val, "-") {
			return false
		}
	}
	x.add(Allow, RuleFileWrite, "perl -pi rewrites files with a plain substitution, as sed -i does")
	for _, f := range files {
		x.write(f)
	}
	return true
}

// perlPlainSubst is one s/PATTERN/REPLACEMENT/FLAGS with nothing that
// runs code.
func perlPlainSubst(code string) bool {
	code = strings.TrimSuffix(strings.TrimSpace(code), ";")
	if len(code) < 4 || code[0] != 's' || !strings.ContainsRune("/|#!,:%", rune(code[1])) {
		return false
	}
	d := code[1]
	var parts []string
	var b strings.Builder
	for k := 2; k < len(code); k++ {
		c := code[k]
		if c == '\\' && k+1 < len(code) {
			b.WriteByte(c)
			b.WriteByte(code[k+1])
			k++
			continue
		}
		if c == d && len(parts) < 2 {
			parts = append(parts, b.String())
			b.Reset()
			continue
		}
		b.WriteByte(c)
	}
	if len(parts) != 2 || strings.Trim(b.String(), "gimsx") != "" {
		return false // a missing part, or flags such as e, ee, r
	}
	pat, repl := parts[0], parts[1]
	if strings.Contains(pat, "(?{") || strings.Contains(pat, "(??{") || strings.Contains(pat, "(*") || strings.ContainsAny(pat+repl, "@`") {
		return false
	}
	for k := 0; k < len(pat); k++ {
		if pat[k] == '$' && k+1 < len(pat) && pat[k+1] != ')' && pat[k+1] != '|' {
			return false // a variable interpolated into the pattern
		}
	}
	for k := 0; k < len(repl); k++ {
		if repl[k] == '$' && !(k+1 < len(repl) && (repl[k+1] >= '1' && repl[k+1] <= '9' || repl[k+1] == '&')) {
			return false
		}
	}
	return true
}
