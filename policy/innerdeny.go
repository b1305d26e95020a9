package policy

import (
	"path/filepath"
	"strings"
)

// Commands the policy cannot read exactly still name the command they
// run: taskset -c 0 npm publish, strace -f -o /dev/null rm -rf ~,
// script -qc 'rm -rf ~' /dev/null, /usr/local/bin/npm publish,
// /proc/self/root/bin/rm -rf ~. They keep asking as before; the command
// they name is judged as well and a deny from it is the line's. Only a
// deny is taken, so a wrong reading makes the line stricter and never lets
// anything through.

// denyOnly runs judge and keeps, of the parts it adds, only the denies.
func (x *cmdCtx) denyOnly(judge func()) {
	before := len(x.c.parts)
	judge()
	kept := x.c.parts[:before]
	for _, p := range x.c.parts[before:] {
		if p.Decision == Deny {
			kept = append(kept, p)
		}
	}
	x.c.parts = kept
}

// askWrapper asks about a wrapper the policy cannot read and judges the
// command it names (innerDeny).
func (x *cmdCtx) askWrapper(reason string, args []word) {
	x.add(Ask, RuleWrapperUnknown, reason)
	x.innerDeny(args)
}

// innerDeny judges, for a wrapper whose options the policy does not know,
// the command its arguments name (from the first word that is a program
// the policy knows) and the shell text given to a -c option.
func (x *cmdCtx) innerDeny(args []word) {
	for i := 1; i < len(args); i++ {
		a := args[i]
		if !a.static {
			return
		}
		if strings.HasPrefix(a.val, "-") && !strings.HasPrefix(a.val, "--") && strings.HasSuffix(a.val, "c") && i+1 < len(args) && args[i+1].static {
			text := args[i+1].val // script -qc 'rm -rf ~', su -c '…'
			x.denyOnly(func() {
				sub := x.cw.copy()
				x.c.shell(text, &sub, x.s.depth+1, args[0].val+" -c")
			})
			continue
		}
		if text, joined, ok := shellTextOption(a.val); ok && (joined || i+1 < len(args) && args[i+1].static) {
			if !joined {
				i++
				text = args[i].val // nix-shell --run 'rm -rf ~'
			}
			x.denyOnly(func() {
				sub := x.cw.copy()
				x.c.shell(text, &sub, x.s.depth+1, args[0].val+" "+a.val)
			})
			continue
		}
		if strings.HasPrefix(a.val, "-") {
			continue
		}
		prog := a.val
		if base, ok := resolvedProgram(prog); ok {
			prog = base
		}
		if subcommandHomonym(args, i) {
			continue // ansible-galaxy role init: a verb, not /sbin/init
		}
		if _, known := handlerFor(prog); known {
			inner := args[i:]
			x.denyOnly(func() { x.nested(inner, args[0].val) })
			return
		}
	}
}

// pathNamedDeny judges a path-qualified program outside the workspace
// whose name the policy knows as that program: /usr/local/bin/npm publish
// is most likely npm publish.
func (x *cmdCtx) pathNamedDeny(args []word) {
	base := filepath.Base(args[0].val)
	if _, known := handlerFor(base); !known || base == filepath.Base(x.c.ws) {
		return
	}
	inner := append([]word{{val: base, static: true}}, args[1:]...)
	x.denyOnly(func() { x.nested(inner, args[0].val) })
}
