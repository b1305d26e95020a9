package runner

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sentinelhq/sentinel/internal/gitrest"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// Some agents keep their own state in the git dir: opencode writes its
// project id to .git/opencode on its first run in a repository. git never
// reads it, and issue 31 wants an agent's state kept as when it runs
// directly, so at the end of an in-place run that file is told as the
// agent's own state, not as a change the coder made in the git dir — only
// for the exact names the run's adapter declares (gitDirStater), only a
// regular file of at most maxAgentGitDirState bytes (one that was a
// regular file or absent at the start). Anything else under that name (a
// link, a directory, a large file), and everything else in the git dir,
// is named as before.

// gitDirStater is an adapter whose agent keeps its own state in the
// project's git dir, under the names GitDirState returns.
type gitDirStater interface{ GitDirState() []string }

// maxAgentGitDirState bounds the size of such a file.
const maxAgentGitDirState = 4096

// agentGitDirState are the names adapter declares (none when it declares none).
func agentGitDirState(adapter any) []string {
	if s, ok := adapter.(gitDirStater); ok {
		return s.GitDirState()
	}
	return nil
}

// tellRest compares the rest of the git dirs now with the start: the
// agent's own state is told as such, every other change as the coder's.
func (g *gitGuard) tellRest(emit func(journal.Lane, journal.Kind, string, any)) {
	if g.rest == nil {
		return
	}
	now := g.snapRest()
	g.mu.Lock()
	g.commits = gitrest.Commits(g.restDirs(), g.rest, now)
	g.mu.Unlock()
	for _, name := range g.agentState {
		if name == "" || strings.ContainsAny(name, `/\`) || name == "." || name == ".." {
			continue
		}
		for _, dir := range uniqueDirs(g.p.GitDir, g.common) {
			p := filepath.Join(dir, name)
			if gitrest.Own(g.rest, now, p, maxAgentGitDirState) {
				emit(journal.System, KindNotice, "in place: the agent keeps its own state in "+p+" (git never reads it); left as it wrote it, as when you run it directly", nil)
			}
		}
	}
	if lines, n := g.restChanges(g.rest, now, 50); len(lines) > 0 {
		text := fmt.Sprintf("in place: the coder changed %d thing(s) in your git dir that no commit, checkout or fetch writes, or that now point at what the coder chose; look at each before you run git there:\n%s", n, strings.Join(lines, "\n"))
		emit(journal.System, KindError, text, nil)
		g.warn(text)
	}
}

// uniqueDirs are dirs without "" and repeats.
func uniqueDirs(dirs ...string) []string {
	var out []string
	for _, d := range dirs {
		if d != "" && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}
