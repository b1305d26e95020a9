package policy

// ShellWrites is every file a shell line writes as the policy's own write
// judgement finds it: redirection targets and the paths of options that
// name an output file (git log --output=F, sort -o F, …), resolved to
// canonical absolute paths. Unknown says some write's target cannot be
// known before the line runs (an expansion, a glob, a brace expansion, a
// relative path in an unknown directory).
type ShellWrites struct {
	Paths   []string
	Unknown bool
}

// ShellWrites reads line as Check does and returns what it writes, for
// callers that must hold some paths to a stricter answer than the line's
// verdict gives (sentinel mcp's exec keeps files that run code later the
// person's, as its file tools do).
func (e *Engine) ShellWrites(line string, ctx Context) ShellWrites {
	_, w := e.CheckWrites(Query{Kind: KindShell, Command: line, Context: ctx})
	return w
}

// CheckWrites is Check of a shell query and ShellWrites of its line from
// one walk: recording the writes changes nothing in the verdict.
func (e *Engine) CheckWrites(q Query) (Verdict, ShellWrites) {
	if q.Kind != KindShell {
		return e.Check(q), ShellWrites{}
	}
	c := e.newEnv(q.Context)
	w := &ShellWrites{}
	c.writes = w
	v := c.checkShell(q)
	return v, *w
}

// wrote records a judged write; "" is one whose target is not known.
func (c *checkEnv) wrote(p string) {
	if c.writes == nil {
		return
	}
	if p == "" {
		c.writes.Unknown = true
		return
	}
	c.writes.Paths = append(c.writes.Paths, p)
}
