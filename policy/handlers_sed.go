package policy

import "strings"

// sed: a script is allowed only when a small parser can follow all of it
// and it neither runs commands (e, s///e) nor reads or writes files.

func sedCmd(x *cmdCtx, args []word) {
	var scripts []string
	fromFile := false
	inPlace := false
	sandboxed := false
	rest := args[1:]
	var ops []word
	for i := 0; i < len(rest); i++ {
		a := rest[i].val
		switch {
		case a == "--":
			ops = append(ops, rest[i+1:]...)
			i = len(rest)
		case a == "-e" || a == "--expression":
			if i+1 < len(rest) {
				scripts = append(scripts, rest[i+1].val)
				i++
			}
		case strings.HasPrefix(a, "--expression="):
			scripts = append(scripts, strings.TrimPrefix(a, "--expression="))
		case a == "-f" || a == "--file" || strings.HasPrefix(a, "--file="):
			fromFile = true
			if a != "--file" && a != "-f" {
				x.readStr(strings.TrimPrefix(a, "--file="))
			} else if i+1 < len(rest) {
				x.read(rest[i+1])
				i++
			}
		case a == "--in-place" || strings.HasPrefix(a, "--in-place="):
			inPlace = true
		case a == "--sandbox":
			sandboxed = true
		case a == "-l" || a == "--line-length":
			i++
		case strings.HasPrefix(a, "--"):
			switch strings.SplitN(a, "=", 2)[0] {
			case "--quiet", "--silent", "--regexp-extended", "--separate", "--null-data", "--unbuffered",
				"--posix", "--debug", "--follow-symlinks", "--binary", "--line-length", "--zero-terminated":
			default:
				x.add(Ask, RuleSedScript, "a sed option the policy does not know: "+a)
			}
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				switch c := a[j]; {
				case c == 'i':
					inPlace = true
					j = len(a) // the rest is a backup suffix
				case c == 'e':
					if j+1 < len(a) {
						scripts = append(scripts, a[j+1:])
					} else if i+1 < len(rest) {
						scripts = append(scripts, rest[i+1].val)
						i++
					}
					j = len(a)
				case c == 'f':
					fromFile = true
					if j+1 < len(a) {
						x.readStr(a[j+1:])
					} else if i+1 < len(rest) {
						x.read(rest[i+1])
						i++
					}
					j = len(a)
				case c == 'l':
					if j+1 == len(a) {
						i++
					}
					j = len(a)
				case strings.IndexByte("nErsuzb", c) >= 0:
				default:
					x.add(Ask, RuleSedScript, "a sed option the policy does not know: "+a)
				}
			}
		default:
			ops = append(ops, rest[i])
		}
	}
	if len(scripts) == 0 && !fromFile {
		if len(ops) == 0 {
			x.add(Ask, RuleSedScript, "sed with no script")
			return
		}
		scripts = append(scripts, ops[0].val)
		if !ops[0].static {
			x.add(Ask, RuleShellDynamicArg, "a sed script built from an expansion")
		}
		ops = ops[1:]
	}
	if fromFile {
		x.add(Ask, RuleSedScript, "a sed script read from a file cannot be judged")
	}
	if inPlace {
		x.add(Allow, RuleFileWrite, "edits files in place inside the workspace")
	} else {
		x.add(Allow, RuleReadOnly, "transforms text")
	}
	if !sandboxed {
		for _, s := range scripts {
			if bad := sedUnsafe(s); bad != "" {
				x.add(Deny, RuleSedScript, "the sed script "+bad)
			}
		}
	}
	for _, w := range ops {
		if inPlace {
			x.write(w)
		} else {
			x.read(w)
		}
	}
}

// sedUnsafe returns why a sed script is unsafe ("" when it only uses
// commands that neither run programs nor touch files). A script it cannot
// follow is unsafe.
func sedUnsafe(s string) string {
	p := &sedParser{s: s}
	return p.run()
}

type sedParser struct {
	s string
	i int
}

func (p *sedParser) eof() bool { return p.i >= len(p.s) }
func (p *sedParser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.s[p.i]
}

func (p *sedParser) skipSpace() {
	for !p.eof() && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

// delimited skips a delimited section (after its opening delimiter has been
// consumed) and reports whether it was closed.
func (p *sedParser) delimited(d byte) bool {
	for !p.eof() {
		c := p.s[p.i]
		p.i++
		if c == '\\' {
			if p.eof() {
				return false
			}
			p.i++
			continue
		}
		if c == '\n' && d != '\n' {
			return false
		}
		if c == d {
			return true
		}
	}
	return false
}

func (p *sedParser) address() bool {
	switch c := p.peek(); {
	case c >= '0' && c <= '9':
		for !p.eof() && (isDigits(string(p.peek())) || p.peek() == '~') {
			p.i++
		}
	case c == '$':
		p.i++
	case c == '/':
		p.i++
		if !p.delimited('/') {
			return false
		}
		for p.peek() == 'I' || p.peek() == 'M' {
			p.i++
		}
	case c == '\\':
		p.i++
		if p.eof() {
			return false
		}
		d := p.s[p.i]
		p.i++
		if !p.delimited(d) {
			return false
		}
		for p.peek() == 'I' || p.peek() == 'M' {
			p.i++
		}
	}
	return true
}

func (p *sedParser) run() string {
	for {
		// Separators.
		for !p.eof() && strings.IndexByte(" \t\n;", p.peek()) >= 0 {
			p.i++
		}
		if p.eof() {
			return ""
		}
		if p.peek() == '#' {
			for !p.eof() && p.peek() != '\n' {
				p.i++
			}
			continue
		}
		if p.peek() == '}' {
			p.i++
			continue
		}
		if !p.address() {
			return "has an address the policy cannot follow"
		}
		p.skipSpace()
		if p.peek() == ',' {
			p.i++
			p.skipSpace()
			if p.peek() == '+' || p.peek() == '~' {
				p.i++
			}
			if !p.address() {
				return "has an address the policy cannot follow"
			}
			p.skipSpace()
		}
		for p.peek() == '!' || p.peek() == ' ' {
			p.i++
		}
		if p.eof() {
			return "ends after an address"
		}
		cmd := p.s[p.i]
		p.i++
		switch cmd {
		case '{', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		case 'l', 'q', 'Q', 'L':
			p.skipSpace()
			for !p.eof() && p.peek() >= '0' && p.peek() <= '9' {
				p.i++
			}
		case ':', 'b', 't', 'T':
			for !p.eof() && p.peek() != '\n' && p.peek() != ';' && p.peek() != '}' {
				p.i++
			}
		case 'a', 'i', 'c':
			// Text up to an unescaped newline.
			for !p.eof() {
				c := p.s[p.i]
				p.i++
				if c == '\\' && !p.eof() {
					p.i++
					continue
				}
				if c == '\n' {
					break
				}
			}
		case 's':
			if p.eof() {
				return "has an unfinished s command"
			}
			d := p.s[p.i]
			p.i++
			if d == '\\' || d == '\n' || !p.delimited(d) || !p.delimited(d) {
				return "has an s command the policy cannot follow"
			}
			for !p.eof() {
				c := p.peek()
				if c == 'g' || c == 'p' || c == 'i' || c == 'I' || c == 'm' || c == 'M' || (c >= '0' && c <= '9') {
					p.i++
					continue
				}
				if c == 'e' {
					return "runs its pattern space as a command (s///e)"
				}
				if c == 'w' || c == 'W' {
					return "writes a file (s///w)"
				}
				break
			}
			if !p.eof() && strings.IndexByte(" \t\n;}#", p.peek()) < 0 {
				return "has s command flags the policy does not know"
			}
		case 'y':
			if p.eof() {
				return "has an unfinished y command"
			}
			d := p.s[p.i]
			p.i++
			if d == '\\' || d == '\n' || !p.delimited(d) || !p.delimited(d) {
				return "has a y command the policy cannot follow"
			}
		case 'e':
			return "runs a command (e)"
		case 'w', 'W':
			return "writes a file (w)"
		case 'r', 'R':
			return "reads a file (r)"
		case 'v':
			for !p.eof() && p.peek() != '\n' && p.peek() != ';' {
				p.i++
			}
		default:
			return "uses a command the policy does not know (" + string(cmd) + ")"
		}
	}
}
