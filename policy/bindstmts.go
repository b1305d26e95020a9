package policy

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The statements that bind a value for bindprop.go, and the substitutions
// whose output is known from their arguments.

// bind records what st binds. A binding whose value is not known forgets
// the name, so a later use keeps the line's own reading.
func (b *binder) bind(st *syntax.Stmt) {
	if b.vars == nil {
		b.vars = map[string][]string{}
	}
	switch x := st.Cmd.(type) {
	case *syntax.DeclClause:
		if b.bindNameref(x) { // bindfilters.go: declare -n ref=v
			return
		}
		for _, a := range x.Args {
			if a.Naked {
				if a.Name != nil {
					delete(b.vars, a.Name.Value)
				}
				continue
			}
			b.assign(a)
		}
	case *syntax.CallExpr:
		if len(x.Args) == 0 {
			for _, a := range x.Assigns {
				b.assign(a)
			}
			return
		}
		args := make([]string, 0, len(x.Args))
		for _, w := range x.Args {
			v, ok := b.lit(w)
			if !ok {
				v = "\x00" // not known
			}
			args = append(args, v)
		}
		b.bindCall(st, args)
	}
}

func (b *binder) assign(a *syntax.Assign) {
	if a.Name == nil {
		return
	}
	name := a.Name.Value
	if a.Index != nil {
		delete(b.vars, name)
		return
	}
	var vals []string
	if a.Array != nil {
		for _, el := range a.Array.Elems {
			v, ok := b.lit(el.Value)
			if el.Index != nil || !ok {
				delete(b.vars, name)
				return
			}
			vals = append(vals, v)
		}
	} else {
		v, ok := b.lit(a.Value)
		if !ok {
			delete(b.vars, name)
			return
		}
		vals = []string{v}
	}
	if a.Append {
		old, ok := b.vars[name]
		if !ok {
			delete(b.vars, name)
			return
		}
		if a.Array != nil {
			vals = append(append([]string(nil), old...), vals...)
		} else if len(old) > 0 {
			vals = []string{old[0] + vals[0]}
		}
	}
	b.vars[name] = vals
}

// bindCall records the bindings of printf -v, read, mapfile, set, shift,
// unset and alias; args are the call's words, "\x00" where not known.
func (b *binder) bindCall(st *syntax.Stmt, args []string) {
	known := func(v string) bool { return v != "\x00" }
	switch args[0] {
	case "printf":
		if len(args) >= 4 && args[1] == "-v" && known(args[2]) {
			for _, a := range args[3:] {
				if !known(a) {
					delete(b.vars, args[2])
					return
				}
			}
			b.vars[args[2]] = []string{printfText(args[3], args[4:])}
		}
	case "read", "mapfile", "readarray":
		b.bindRead(st, args)
	case "set":
		if len(args) >= 2 && (args[1] == "--" || !strings.HasPrefix(args[1], "-") && !strings.HasPrefix(args[1], "+")) {
			rest := args[1:]
			if args[1] == "--" {
				rest = args[2:]
			}
			for _, a := range rest {
				if !known(a) {
					b.pos = nil
					return
				}
			}
			zero := "bash"
			if len(b.pos) > 0 {
				zero = b.pos[0]
			}
			b.pos = append([]string{zero}, rest...)
		}
	case "shift":
		if len(b.pos) > 1 {
			b.pos = append(b.pos[:1:1], b.pos[2:]...)
		}
	case "unset":
		for _, a := range args[1:] {
			delete(b.vars, a)
		}
	case "hash":
		b.bindHash(args) // bindfilters.go: hash -p /usr/bin/git ls
	case "alias":
		for _, a := range args[1:] {
			if name, v, ok := strings.Cut(a, "="); ok && known(a) {
				if b.aliases == nil {
					b.aliases = map[string]string{}
				}
				b.aliases[name] = v
			}
		}
	}
}

// bindRead binds read's and mapfile's names from a here-string or a
// here-document in plain sight.
func (b *binder) bindRead(st *syntax.Stmt, args []string) {
	var input string
	have := false
	for _, r := range st.Redirs {
		switch r.Op {
		case syntax.WordHdoc:
			if v, ok := b.lit(r.Word); ok {
				input, have = v+"\n", true
			}
		case syntax.Hdoc, syntax.DashHdoc:
			if v, ok := b.lit(r.Hdoc); ok {
				input, have = v, true
			}
		}
	}
	var names []string
	array, lines := "", args[0] != "read"
	for i := 1; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			names = append(names, a)
			continue
		}
		for _, f := range a[1:] {
			switch {
			case f == 'a' && !lines && i+1 < len(args) && strings.HasSuffix(a, "a"):
				array = args[i+1]
				i++
			case f == 'r' || f == 't' || f == 's':
			default:
				have = false // -d, -n, -u …: another reading
			}
		}
	}
	if lines && len(names) == 0 {
		names = []string{"MAPFILE"}
	}
	if !lines && len(names) == 0 && array == "" {
		names = []string{"REPLY"}
	}
	forget := func() {
		for _, n := range append(names, array) {
			delete(b.vars, n)
		}
	}
	if !have {
		forget()
		return
	}
	if lines {
		b.vars[names[0]] = strings.Split(strings.TrimSuffix(input, "\n"), "\n")
		return
	}
	line, _, _ := strings.Cut(input, "\n")
	fields := strings.Fields(line)
	if array != "" {
		b.vars[array] = fields
		return
	}
	for i, n := range names {
		switch {
		case i >= len(fields):
			b.vars[n] = []string{""}
		case i == len(names)-1:
			b.vars[n] = []string{strings.Join(fields[i:], " ")}
		default:
			b.vars[n] = []string{fields[i]}
		}
	}
}

// substOutput is the output of $(…) when its program's output is known
// from its arguments, trailing newlines taken off as bash does.
func (b *binder) substOutput(cs *syntax.CmdSubst) (string, bool) {
	if out, ok := b.filterSubst(cs); ok { // bindfilters.go: $(rev <<< tig), $(echo x | tr …)
		return out, true
	}
	if len(cs.Stmts) != 1 || len(cs.Stmts[0].Redirs) > 0 {
		return "", false
	}
	call, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return "", false
	}
	args := make([]string, len(call.Args))
	for i, w := range call.Args {
		v, ok := b.lit(w)
		if !ok {
			return "", false
		}
		args[i] = v
	}
	var out string
	switch {
	case args[0] == "printf" && len(args) >= 2 && args[1] != "-v":
		out = printfText(args[1], args[2:])
	case args[0] == "echo":
		out = echoText(args[1:])
	case (args[0] == "which" || args[0] == "command" && len(args) == 3 && args[1] == "-v" ||
		args[0] == "type" && len(args) == 3 && args[1] == "-P") && len(args) >= 2:
		out = path.Base(args[len(args)-1]) // the program of that name
	case args[0] == "dirname" && len(args) == 2:
		out = path.Dir(args[1])
	case args[0] == "basename" && len(args) == 2:
		out = path.Base(args[1])
	case (args[0] == "true" || args[0] == ":" || args[0] == "false") && len(args) == 1:
		out = "" // prints nothing: $(true)git is git (polcorp12)
	case args[0] == "pwd" && len(args) == 1 && b.cwd != "":
		out = b.cwd
	default:
		return "", false
	}
	return strings.TrimRight(out, "\n"), true
}

// echoText is what echo prints.
func echoText(args []string) string {
	nl, esc := true, false
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" {
		nl = nl && !strings.Contains(args[0], "n")
		esc = esc || strings.Contains(args[0], "e")
		args = args[1:]
	}
	out := strings.Join(args, " ")
	if esc {
		out, _ = decodeANSIC(out)
	}
	if nl {
		out += "\n"
	}
	return out
}

// printfText is what printf FORMAT ARGS… prints: the format's escapes
// decoded, %s %b %d %c %q and %% written, the format used again while
// arguments are left.
func printfText(format string, args []string) string {
	format, _ = decodeANSIC(format)
	var out strings.Builder
	for round := 0; round < 64; round++ {
		used := 0
		for i := 0; i < len(format); i++ {
			ch := format[i]
			if ch != '%' || i+1 >= len(format) {
				out.WriteByte(ch)
				continue
			}
			j := i + 1
			for j < len(format) && strings.IndexByte("-+ #0123456789.", format[j]) >= 0 {
				j++
			}
			if j >= len(format) {
				out.WriteString(format[i:])
				break
			}
			conv := format[j]
			i = j
			if conv == '%' {
				out.WriteByte('%')
				continue
			}
			arg := ""
			if used < len(args) {
				arg = args[used]
			}
			used++
			switch conv {
			case 'b':
				v, _ := decodeANSIC(arg)
				out.WriteString(v)
			case 'c':
				if arg != "" {
					out.WriteByte(arg[0])
				}
			case 'd', 'i', 'u':
				if arg == "" {
					arg = "0"
				}
				out.WriteString(arg)
			default:
				out.WriteString(arg)
			}
		}
		args = args[min(used, len(args)):]
		if used == 0 || len(args) == 0 {
			break
		}
	}
	return out.String()
}
