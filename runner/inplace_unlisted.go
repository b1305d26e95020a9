package runner

import "github.com/sentinelhq/sentinel/internal/textsafe"

// A directory the end sweep cannot list (the coder made it unreadable,
// chmod 311, where Sentinel runs without CAP_DAC_READ_SEARCH) may hold a
// git dir the coder made, which git would still find and run: the sweep
// cannot look for it, so the report names each such directory, as
// sentinel mcp does after each command; and a sweep that could not look
// at all says why.

// noteUnlisted keeps what the sweep could not list, and why it could not
// look at all (nil: it looked).
func (g *gitGuard) noteUnlisted(dirs []string, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.unlisted, g.scanErr = dirs, err
}

// unlistedLines are the report's lines for them.
func (g *gitGuard) unlistedLines() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []string
	if g.scanErr != nil {
		out = append(out, textsafe.Line("in place: could not look through "+g.p.Root+" for git dirs the coder made ("+g.scanErr.Error()+"): do not run git there until you have looked"))
	}
	for _, d := range g.unlisted {
		out = append(out, textsafe.Line("in place: "+d+" cannot be listed, so Sentinel cannot check it for git dirs the coder made: do not run git under it until you have looked"))
	}
	return out
}
