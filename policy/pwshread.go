package policy

import "strings"

// PowerShell inline code read as PowerShell. `pwsh -c 'Remove-Item
// -Recurse -Force ~/Documents'`, `powershell -Command "Get-ChildItem
// $env:USERPROFILE -Recurse | Remove-Item -Force"` and `pwsh -c 'rm -r -fo
// ~'` delete as surely as rm -rf does, but their text is PowerShell, not
// sh. pwshLines translates the cmdlets (and their aliases) that delete,
// copy, move, write or download into the sh lines they amount to, with
// PowerShell's names for the home directory ($HOME, $env:USERPROFILE,
// $env:HOME, ~) written ~, a drive path (C:\Users\x) as an absolute path,
// and any other variable as a value that cannot be known; the walk then
// judges those lines like any other. Nothing here allows: the inline code
// still asks, and a deny of a translated line denies.

// pwshVerb maps a cmdlet or alias (lower-cased) to the sh program it acts
// as, or "".
func pwshVerb(name string) string {
	switch name {
	case "remove-item", "rm", "del", "erase", "rd", "rmdir", "ri":
		return "rm"
	case "copy-item", "cp", "copy", "cpi":
		return "cp"
	case "move-item", "mv", "move", "mi":
		return "mv"
	case "set-content", "sc", "out-file", "add-content", "ac", "clear-content", "clc":
		return "write"
	case "get-content", "gc", "cat", "type":
		return "cat"
	case "invoke-webrequest", "iwr", "invoke-restmethod", "irm", "curl", "wget":
		return "curl"
	case "invoke-expression", "iex":
		return "eval"
	case "get-childitem", "gci", "ls", "dir":
		return "ls"
	}
	return ""
}

// pwshLines returns the sh lines PowerShell code amounts to, at most 32.
func pwshLines(code string) []string {
	var out []string
	for _, st := range pwshSplit(code, ";\n") {
		stages := pwshSplit(st, "|")
		prevList := ""
		for i, stage := range stages {
			f := pwshFields(stage)
			if len(f) == 0 {
				continue
			}
			verb := pwshVerb(strings.ToLower(strings.Trim(f[0], "&.")))
			targets, opts := pwshArgs(f[1:])
			switch verb {
			case "ls":
				if len(targets) > 0 {
					prevList = targets[0]
				} else {
					prevList = "."
				}
				continue
			case "rm":
				if len(targets) == 0 && i > 0 && prevList != "" {
					targets = []string{prevList} // gci PATH -Recurse | Remove-Item
				}
				for _, t := range targets {
					out = append(out, "rm -rf "+t)
				}
			case "cp", "mv":
				if len(targets) >= 2 {
					out = append(out, verb+" -r "+strings.Join(targets, " "))
				}
			case "write":
				for _, t := range targets[min(1, len(targets)):] {
					out = append(out, "printf x > "+t)
				}
				if p, ok := opts["-path"]; ok {
					out = append(out, "printf x > "+p)
				}
				if p, ok := opts["-filepath"]; ok {
					out = append(out, "printf x > "+p)
				}
			case "cat":
				for _, t := range targets {
					out = append(out, "cat "+t)
				}
			case "curl":
				line := "curl -s " + strings.Join(targets, " ")
				if p, ok := opts["-outfile"]; ok {
					line += " -o " + p
				}
				if i+1 < len(stages) && pwshVerb(strings.ToLower(firstField(stages[i+1]))) == "eval" {
					line += " | sh" // iwr URL | iex
				}
				out = append(out, line)
			case "eval":
				if strings.Contains(strings.ToLower(stage), "iwr") || strings.Contains(strings.ToLower(stage), "invoke-webrequest") ||
					strings.Contains(strings.ToLower(stage), "irm") || strings.Contains(strings.ToLower(stage), "downloadstring") {
					out = append(out, "curl -s https://unseen.invalid/x | sh") // iex (iwr URL): runs what it downloads
				}
			}
			if len(out) >= 32 {
				return out
			}
		}
	}
	return out
}

func firstField(s string) string {
	if f := pwshFields(s); len(f) > 0 {
		return strings.Trim(f[0], "&.")
	}
	return ""
}

// pwshArgs separates a cmdlet's positional arguments from its named
// parameters (lower-cased, with their values), each argument translated
// into a sh word. -Path, -LiteralPath and -Destination count as
// positional; switches (-Recurse, -Force, -r, -fo) take no value.
func pwshArgs(f []string) (targets []string, opts map[string]string) {
	opts = map[string]string{}
	switches := wordSet{words: []string{"-recurse", "-r", "-force", "-fo", "-f", "-confirm:$false", "-whatif", "-verbose",
		"-usebasicparsing", "-container", "-passthru", "-nonewline", "-append", "-erroraction", "-ea"}}
	for i := 0; i < len(f); i++ {
		a := f[i]
		la := strings.ToLower(a)
		if strings.HasPrefix(la, "-") && len(la) > 1 {
			if switches.has(la) || strings.Contains(la, ":") {
				if (la == "-erroraction" || la == "-ea") && i+1 < len(f) {
					i++
				}
				continue
			}
			if i+1 < len(f) {
				i++
				v := pwshWord(f[i])
				switch la {
				case "-path", "-literalpath", "-lp", "-destination", "-uri":
					targets = append(targets, v)
				default:
					opts[la] = v
				}
			}
			continue
		}
		targets = append(targets, pwshWord(a))
	}
	return targets, opts
}

// pwshWord translates one PowerShell argument into a sh word.
func pwshWord(a string) string {
	q := len(a) >= 2 && (a[0] == '\'' || a[0] == '"') && a[len(a)-1] == a[0]
	if q {
		a = a[1 : len(a)-1]
	}
	a = strings.ReplaceAll(a, `\`, "/")
	la := strings.ToLower(a)
	// ":userprofile" is $env:USERPROFILE inside sh double quotes, where sh
	// expands $env (to nothing) before PowerShell reads the rest.
	for _, home := range []string{"$env:userprofile", "${env:userprofile}", "$env:home", "${env:home}", "$home", "${home}",
		":userprofile", ":home", "~"} {
		if la == home || strings.HasPrefix(la, home+"/") {
			return "~" + shellWordRest(a[len(home):])
		}
	}
	if len(a) >= 3 && a[1] == ':' && a[2] == '/' && (a[0]|0x20 >= 'a' && a[0]|0x20 <= 'z') {
		return shellWord("/" + a) // C:/Users/x: a drive path, outside the workspace
	}
	if strings.Contains(a, "$") || strings.Contains(a, "(") {
		return unknownCodeValue
	}
	return shellWord(a)
}

// shellWordRest quotes what follows ~ (a "/…" rest or nothing).
func shellWordRest(rest string) string {
	if rest == "" || rest == "/" {
		return rest
	}
	return "/" + shellWord(strings.TrimPrefix(rest, "/"))
}

// pwshSplit splits code at any of seps outside quotes, parentheses and
// braces.
func pwshSplit(code, seps string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(code); i++ {
		switch c := code[i]; {
		case c == '\'' || c == '"':
			if end := strings.IndexByte(code[i+1:], c); end >= 0 {
				i += end + 1
			}
		case c == '(' || c == '{':
			depth++
		case c == ')' || c == '}':
			depth--
		case depth == 0 && strings.IndexByte(seps, c) >= 0:
			out = append(out, code[start:i])
			start = i + 1
		}
	}
	return append(out, code[start:])
}

// pwshFields splits a PowerShell command into its words, a quoted string
// or a parenthesised expression being one word.
func pwshFields(s string) []string {
	var out []string
	cur, depth := "", 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			stop := len(s) - 1 // an unclosed quote runs to the end
			if end := strings.IndexByte(s[i+1:], c); end >= 0 {
				stop = i + 1 + end
			}
			cur += s[i : stop+1]
			i = stop
		case c == '(':
			depth++
			cur += string(c)
		case c == ')':
			depth--
			cur += string(c)
		case (c == ' ' || c == '\t') && depth == 0:
			if cur != "" {
				out = append(out, cur)
			}
			cur = ""
		default:
			cur += string(c)
		}
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

// pwshInline judges PowerShell inline code by the sh lines it amounts to.
func (x *cmdCtx) pwshInline(name, code string) {
	for _, line := range pwshLines(code) {
		sub := x.cw.copy()
		x.c.shell(line, &sub, x.s.depth+1, name+" runs PowerShell")
	}
}
