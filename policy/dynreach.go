package policy

// A command whose name stays dynamic ($c -rf ~ with c not known, "$@"
// with the positional parameters not known) asks. When one of its
// arguments names the home directory, /, a directory the workspace lies
// in, or a credential location, it is denied: whatever program the name
// turns out to be, the line points it at what no task in the workspace
// needs, and it is the shape of every spelling of rm -rf ~ that hides the
// program's name.

// dynamicReach denies a dynamic command given such an argument.
func (x *cmdCtx) dynamicReach(args []word) {
	for _, a := range args {
		if !a.static {
			continue
		}
		for _, p := range x.resolve(a) {
			if x.c.reachesOutside(p) {
				x.add(Deny, RuleShellDynamicCmd, "the command name comes from an expansion, and it is given "+x.c.show(p)+", which lies outside the workspace")
				return
			}
		}
	}
}

// reachesOutside: p is /, the home directory or a directory above it, a
// directory the workspace lies in, or a credential location.
func (c *checkEnv) reachesOutside(p string) bool {
	switch {
	case p == "/":
		return true
	case c.home != "" && within(c.home, p):
		return true
	case c.ws != "" && within(c.ws, p) && p != c.ws:
		return true
	}
	return c.isCredential(p)
}
