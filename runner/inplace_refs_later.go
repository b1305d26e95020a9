package runner

import (
	"context"
	"fmt"
	"strings"

	"github.com/sentinelhq/sentinel/internal/gitcarry"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// A ref the coder moved or made carries the coder's commits, and those
// reach the person's files without the work tree changing during the run:
// a commit of a trojaned Makefile, a new .envrc or a CI workflow, with the
// work tree put back as it was, leaves `git status` showing the person's
// own files as staged changes; their `git reset --hard`, `git checkout .`,
// a checkout of the branch, a merge or a `git stash pop` writes the
// coder's files, and `git push` sends the workflow to CI. The work tree's
// comparison cannot see any of it, so each moved ref is compared with
// where it was (a new one with where HEAD was at the start), from their
// merge base (a stash entry: from the commit it was made on, its
// untracked files included), and the
// files that run code later among what its commits change are flagged on
// the ref's line, as changed files are.

// maxRefFlags bounds how many run-later files one ref's line names.
const maxRefFlags = 8

// refsRunLater fills each move's RunsLater from after, the refs now.
// A move whose commits cannot be read is flagged so, not passed over.
func (g *gitGuard) refsRunLater(ctx context.Context, moves []RefMove, after *refState) {
	start := gitcarry.Commit(g.refs.Refs, g.refs.Head)
	for i := range moves {
		m := &moves[i]
		var base, tip string
		stash := false
		switch {
		case m.Ref == "stash" && after.Stash > g.refs.Stash:
			tip, stash = after.Refs["refs/stash"], true
		case m.Ref == "refs/stash":
			tip, stash = m.After, true
		case m.Ref == "stash":
			continue // entries dropped: nothing new to pop
		case m.Ref == "HEAD":
			tip, base = gitcarry.Commit(after.Refs, m.After), gitcarry.Commit(g.refs.Refs, m.Before)
		default:
			tip, base = m.After, gitcarry.Commit(g.refs.Refs, m.Before)
		}
		if strings.HasPrefix(m.Ref, "refs/replace/") || tip == "" || strings.HasPrefix(tip, "ref: ") {
			continue // a replace ref has its own flag; a deletion carries nothing
		}
		if base == "" {
			base = start
		}
		files, err := gitcarry.Files(ctx, g.p.Root, g.p.GitDir, base, tip, stash)
		if err != nil {
			m.Unreadable = textsafe.Line(err.Error())
			continue
		}
		m.RunsLater = FlaggedFiles(files, nil)
	}
}

// laterText is the part of a ref's line that names what its commits carry.
func (m RefMove) laterText() string {
	if m.Unreadable != "" {
		return " [" + m.Unreadable + "]"
	}
	if len(m.RunsLater) == 0 {
		return ""
	}
	var parts []string
	for i, f := range m.RunsLater {
		if i == maxRefFlags {
			parts = append(parts, fmt.Sprintf("and %d more", len(m.RunsLater)-i))
			break
		}
		parts = append(parts, f.Path+" ("+f.Reason+")")
	}
	return " [its commits change files that run code later: " + strings.Join(parts, "; ") + "; they reach your files on a checkout, reset, merge or stash pop and your remote on push: look with git show " + m.showArg() + "]"
}

// showArg is what the person gives git show to see the ref's commits.
func (m RefMove) showArg() string {
	switch m.Ref {
	case "stash":
		return "stash@{0}"
	case "HEAD":
		return "HEAD"
	}
	return m.Ref
}
