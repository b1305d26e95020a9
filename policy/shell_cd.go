package policy

import "path/filepath"

// cd turns a cd target into the new directory set.
func (c *checkEnv) cd(x *cmdCtx, args []word) {
	cw := x.cw
	x.add(Allow, RuleShellCd, "changes directory")
	var target word
	switch {
	case len(args) == 0:
		if c.home == "" {
			cw.unknown = true
			return
		}
		target = word{val: c.home, static: true}
	default:
		target = args[len(args)-1]
		for _, a := range args {
			if a.static && (a.val == "-P" || a.val == "-L" || a.val == "-e" || a.val == "-@") {
				continue
			}
			target = a
			break
		}
	}
	if target.static && target.pattern && !target.brace {
		if v, ok := cdGlobTarget(target.val); ok { // cdglob.go
			target = word{val: v, static: true}
		}
	}
	if !target.static || target.pattern || target.val == "-" {
		x.add(Ask, RulePathUnknown, "cd to a directory that cannot be known before it runs")
		cw.unknown = true
		return
	}
	c.cdTo, c.cdKnown = nil, true // cdand.go: where this cd goes when it succeeds
	add := func(p string) {
		if p == "" {
			cw.unknown = true
			c.cdKnown = false
			return
		}
		cw.add(p)
		c.cdTo = append(c.cdTo, p)
	}
	// bash's cd is logical: a later `cd ..` or `cd l/..` leaves by the
	// link's name, while files are reached through its target. Through a
	// symbolic link the two part: both are where the line may then be
	// (the name kept as it is, so a later .. is taken from it), and the
	// directory it left stays one too (no narrowing in an && list).
	to := func(raw string) {
		add(c.canon(raw))
		if l := c.lexical(raw); l != c.canon(raw) {
			cw.add(l)
			c.cdTo, c.cdKnown = append(c.cdTo, l), false
		}
	}
	if filepath.IsAbs(target.val) {
		to(target.val)
		return
	}
	if cw.unknown {
		c.cdKnown = false
		return
	}
	for _, d := range append([]string(nil), cw.dirs...) {
		to(rawJoin(d, target.val))
	}
}
