package policy

// A program "built by this line" (buildOutput) is the project's sources,
// compiled, only when the build succeeded before it runs: `go build -o x
// && ./x` runs what was just built, but `go build -o x; ./x`, `go build -o
// x || true; ./x` and `go build -o x | ./x` run whatever the file held
// before when the build fails (a binary left by an earlier step or planted
// in the private /tmp). The walk bumps checkEnv.step wherever a later
// command runs without the earlier one's success (after each statement of
// a list, at ||, between pipeline stages); a product counts as built for
// a run at the same step, reached through && only.

// builtHere reports whether p was built by this line on an && chain that
// leads to the command now judged.
func (c *checkEnv) builtHere(p string) bool {
	s, ok := c.built[p]
	return ok && s == c.step
}
