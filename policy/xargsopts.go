package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// xargs's options as getopt reads them (issue 32, polcorp15): short flags
// bundle (-0r is -0 -r; -rn1 is -r -n 1; -0I{} is -0 -I {}, the value the
// rest of the word or the next word), long options take =VALUE
// (--max-args=1, --replace=X). xargsCommand reads every spelling the same,
// so a feed's command is judged whichever one the line uses. And xargs fed
// through a process substitution on its standard input, `xargs -0 rm -rf <
// <(printf '%s\0' ~/Documents)`, is fed by that producer as by a pipe.

// xargsFlags are xargs's short options that take no value; xargsValued
// take one.
const (
	xargsFlags  = "0rtx"
	xargsValued = "nLPIsdE"
)

// xargsBundleRead is one bundled short-option word: opt is its valued
// option (0 for none), val that option's value when the word holds it,
// needsNext when it is the next word.
type xargsBundleRead struct {
	opt       byte
	val       string
	needsNext bool
}

// xargsBundle reads v as bundled short options; ok is false for anything
// else (a single known option is read by xargsCommand's own cases too).
func xargsBundle(v string) (xargsBundleRead, bool) {
	if len(v) < 3 || v[0] != '-' || v[1] == '-' {
		return xargsBundleRead{}, false
	}
	for i := 1; i < len(v); i++ {
		switch c := v[i]; {
		case strings.IndexByte(xargsFlags, c) >= 0:
		case strings.IndexByte(xargsValued, c) >= 0:
			if i == len(v)-1 {
				return xargsBundleRead{opt: c, needsNext: true}, true
			}
			return xargsBundleRead{opt: c, val: v[i+1:]}, true
		default:
			return xargsBundleRead{}, false
		}
	}
	return xargsBundleRead{}, true
}

// xargsLongRead is one long option: mark is --replace's marker.
type xargsLongRead struct{ mark string }

// xargsLongOption reads xargs's long options that only change how items
// are split or counted, and --replace=MARK; ok is false for the rest.
func xargsLongOption(v string) (xargsLongRead, bool) {
	name, val, eq := strings.Cut(v, "=")
	switch name {
	case "--max-args", "--max-lines", "--max-procs", "--max-chars", "--delimiter":
		return xargsLongRead{}, eq
	case "--replace":
		if !eq {
			val = "{}"
		}
		return xargsLongRead{mark: val}, true
	case "--exit", "--open-tty", "--process-slot-var":
		return xargsLongRead{}, name != "--process-slot-var" || eq
	}
	return xargsLongRead{}, false
}

// judgeXargsProcFeed judges xargs whose standard input is a process
// substitution of one producer (echo, printf, ls -d, find) as the pipe
// producer | xargs is judged.
func (c *checkEnv) judgeXargsProcFeed(s *src, st *syntax.Stmt, call *syntax.CallExpr, cw *cwds) {
	if argv := c.staticArgv(call); len(argv) == 0 || argv[0] != "xargs" {
		return
	}
	for _, r := range st.Redirs {
		if r.Op != syntax.RdrIn || r.Word == nil || len(r.Word.Parts) != 1 {
			continue
		}
		ps, ok := r.Word.Parts[0].(*syntax.ProcSubst)
		if !ok || ps.Op != syntax.CmdIn || len(ps.Stmts) != 1 {
			continue
		}
		prod, ok := ps.Stmts[0].Cmd.(*syntax.CallExpr)
		if !ok {
			continue
		}
		if cmd, ok := findExecSpelling(s, c.staticArgv(prod), prod, call); ok { // findfeed.go
			c.shellDenyOnly(s, cmd, cw, "xargs fed by find")
		}
		if items := c.producedItems(s, prod); len(items) > 0 {
			if cmd, ok := xargsCommand(s, call, items); ok {
				c.shellDenyOnly(s, cmd, cw, "xargs fed by "+strings.Fields(s.slice(prod))[0])
			}
		}
	}
}
