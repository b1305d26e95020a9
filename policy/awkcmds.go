package policy

import "strings"

// awkCommands returns the shell commands an awk program spells as string
// literals: system("cmd"), print | "cmd" and "cmd" | getline. They are
// judged as shell (awk hands them to /bin/sh), so `awk
// 'BEGIN{system("rm -rf ~")}'` is denied as `rm -rf ~` is; the program
// keeps asking for running commands at all.
func awkCommands(prog string) []string {
	var out []string
	for i := 0; i < len(prog); i++ {
		switch {
		case strings.HasPrefix(prog[i:], "system("):
			rest := strings.TrimLeft(prog[i+len("system("):], " \t")
			if lit, ok := leadingLiteral(rest); ok {
				out = append(out, lit)
			}
		case prog[i] == '|':
			rest := strings.TrimLeft(prog[i+1:], " \t")
			if lit, ok := leadingLiteral(rest); ok {
				out = append(out, lit)
			}
		case prog[i] == '"':
			if lit, ok := leadingLiteral(prog[i:]); ok {
				after := strings.TrimLeft(prog[i+len(lit)+2:], " \t")
				if strings.HasPrefix(after, "|") && strings.Contains(after[:min(len(after), 12)], "getline") {
					out = append(out, lit)
				}
				i += len(lit) + 1
			}
		}
	}
	return out
}

// leadingLiteral reads a double-quoted awk string at the start of s
// (escapes \" and \\ undone).
func leadingLiteral(s string) (string, bool) {
	if !strings.HasPrefix(s, `"`) {
		return "", false
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			}
		case '"':
			return b.String(), true
		default:
			b.WriteByte(s[i])
		}
	}
	return "", false
}

// awkFiles judges the files an awk program names as string literals:
// print > "FILE" and >> "FILE" write FILE, getline < "FILE" reads it, as
// the shell's redirections would (so `print > "~/.bashrc"` is denied as
// `> ~/.bashrc` is, and `getline < "~/.ssh/id_rsa"` as reading it is). A
// program that reads ENVIRON and writes a file or a pipe hands the
// environment to it: denied, as `env > out.txt` is.
func (x *cmdCtx) awkFiles(prog string) {
	writes := false
	for i := 0; i < len(prog); i++ {
		c := prog[i]
		if c == '"' {
			if lit, ok := leadingLiteral(prog[i:]); ok {
				i += len(lit) + 1
			}
			continue
		}
		if c != '>' && c != '<' && c != '|' {
			continue
		}
		j := i + 1
		if c == '>' && j < len(prog) && prog[j] == '>' {
			j++
		}
		rest := strings.TrimLeft(prog[j:], " \t")
		if c == '|' {
			if strings.HasPrefix(rest, "\"") {
				writes = true
			}
			continue
		}
		lit, ok := leadingLiteral(rest)
		if !ok {
			continue
		}
		if c == '>' {
			writes = true
			x.writeStr(lit)
		} else {
			x.readStr(lit)
		}
	}
	if writes && strings.Contains(prog, "ENVIRON") {
		x.add(Deny, RuleEnvDumpSink, "the awk program writes the environment (ENVIRON) to a file or a command")
	}
}
