package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A PATH that puts the workspace's own program folders before the
// existing ones — export PATH="$PWD/node_modules/.bin:$PATH" && jest —
// runs the project's own programs, as npx jest does: inside the sandbox
// that is the project's own code; without it, it asks. Any other PATH
// (a folder outside the workspace, a relative or empty entry that follows
// the working directory, a value from another expansion, PATH replaced
// rather than extended) is judged by the name, which denies.

// pathPrependsWorkspace reports whether v, the value of PATH=, is the
// existing $PATH with folders of the workspace added before or after it,
// each written as $PWD/…, $(pwd)/… or an absolute path. $PWD is the
// working directory the assignment runs in, as cw knows it, and only
// when the line sets PWD nowhere.
func (c *checkEnv) pathPrependsWorkspace(v *syntax.Word, cw *cwds) bool {
	if v == nil || cw == nil || cw.unknown || len(cw.dirs) == 0 || !onlyReadsVar(c.line, "PWD") {
		return false
	}
	const pwdMark, pathMark = "\x01", "\x02"
	var b strings.Builder
	var part func(p syntax.WordPart) bool
	part = func(p syntax.WordPart) bool {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if !part(q) {
					return false
				}
			}
		case *syntax.ParamExp:
			if !plainParam(p) {
				return false
			}
			switch p.Param.Value {
			case "PWD":
				b.WriteString(pwdMark)
			case "PATH":
				b.WriteString(pathMark)
			default:
				return false
			}
		case *syntax.CmdSubst:
			if !pwdSubst(p) {
				return false
			}
			b.WriteString(pwdMark)
		default:
			return false
		}
		return true
	}
	for _, p := range v.Parts {
		if !part(p) {
			return false
		}
	}
	x := &cmdCtx{c: c, cw: cw}
	paths, dirs := 0, 0
	for _, e := range strings.Split(b.String(), ":") {
		switch {
		case e == pathMark:
			paths++
			continue
		case strings.HasPrefix(e, pwdMark+"/"):
			e = "." + e[len(pwdMark):]
		case !strings.HasPrefix(e, "/"):
			return false // empty or relative: follows the working directory
		}
		if strings.ContainsAny(e, pwdMark+pathMark) || !x.inWorkspaceList(e) {
			return false
		}
		dirs++
	}
	return paths == 1 && dirs > 0
}

// plainParam is $NAME or ${NAME}, with no operator.
func plainParam(pe *syntax.ParamExp) bool {
	return pe.Param != nil && !pe.Excl && !pe.Length && !pe.Width && pe.Index == nil && pe.Slice == nil &&
		pe.Repl == nil && pe.Names == 0 && pe.Exp == nil && pe.NestedParam == nil
}

// pwdSubst is $(pwd) or `pwd`.
func pwdSubst(cs *syntax.CmdSubst) bool {
	if len(cs.Stmts) != 1 {
		return false
	}
	st := cs.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(st.Redirs) > 0 || len(call.Assigns) > 0 || len(call.Args) != 1 {
		return false
	}
	lit := call.Args[0].Lit()
	return lit == "pwd"
}

// onlyReadsVar reports whether every mention of the variable name in the
// line is an expansion of it ($NAME or ${NAME}): the line never assigns,
// reads into, exports, declares or unsets it.
func onlyReadsVar(line, name string) bool {
	for i := 0; ; {
		j := strings.Index(line[i:], name)
		if j < 0 {
			return true
		}
		at := i + j
		end := at + len(name)
		i = end
		if end < len(line) && identByte(line[end]) {
			continue // a longer name: PWDX
		}
		switch {
		case at >= 1 && line[at-1] == '$':
		case at >= 2 && line[at-2:at] == "${" && (strings.HasPrefix(line[end:], "}") || strings.HasPrefix(line[end:], ":-") || strings.HasPrefix(line[end:], "-")):
			// ${NAME}, ${NAME:-default}: read; ${NAME:=x} assigns
		case at >= 1 && identByte(line[at-1]):
			return false // OLDPWD and the like: judged conservatively
		default:
			return false
		}
	}
}

func identByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}
