package runner

import (
	"context"
	"fmt"
	"strings"

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
	git := gitCmd{dir: g.p.Root, env: []string{"GIT_DIR=" + g.p.GitDir}}
	start := commitOf(g.refs, g.refs.Head)
	for i := range moves {
		m := &moves[i]
		var base, tip string
		untracked := false
		switch {
		case m.Ref == "stash" && after.Stash > g.refs.Stash:
			tip = after.Refs["refs/stash"]
			base, untracked = tip+"^1", true
		case m.Ref == "refs/stash":
			tip = m.After
			base, untracked = tip+"^1", true
		case m.Ref == "stash":
			continue // entries dropped: nothing new to pop
		case m.Ref == "HEAD":
			tip, base = commitOf(after, m.After), commitOf(g.refs, m.Before)
		default:
			tip, base = m.After, commitOf(g.refs, m.Before)
		}
		if strings.HasPrefix(m.Ref, "refs/replace/") || tip == "" || strings.HasPrefix(tip, "ref: ") {
			continue // a replace ref has its own flag; a deletion carries nothing
		}
		if base == "" {
			base = start
		}
		if !untracked && base != "" {
			// Only what tip's history adds: a tag on one of the person's
			// older commits, or a branch reset back, carries nothing new.
			mb, err := git.line(ctx, "merge-base", base, tip)
			if err != nil {
				mb = "" // unrelated histories (or unreadable: ls-tree says)
			}
			base = mb
		}
		files, err := commitsFiles(ctx, git, base, tip, untracked)
		if err != nil {
			m.Unreadable = textsafe.Line(err.Error())
			continue
		}
		m.RunsLater = FlaggedFiles(files, nil)
	}
}

// commitOf is the commit a ref value names in state: itself, or for a
// symbolic ref what its target named ("" when that is unknown).
func commitOf(state *refState, v string) string {
	for hops := 0; strings.HasPrefix(v, "ref: ") && hops < 5; hops++ {
		v = state.Refs[strings.TrimPrefix(v, "ref: ")]
	}
	if strings.HasPrefix(v, "ref: ") {
		return ""
	}
	return v
}

// commitsFiles are the paths whose content differs between base and tip
// (every path of tip when base is ""), and with untracked those of tip's
// third parent (what `git stash -u` kept and `stash pop` writes).
func commitsFiles(ctx context.Context, git gitCmd, base, tip string, untracked bool) ([]string, error) {
	args := []string{"diff-tree", "-r", "-z", "--name-only", "--no-renames", base + "^{tree}", tip + "^{tree}"}
	if base == "" {
		args = []string{"ls-tree", "-r", "-z", "--name-only", "--full-tree", tip + "^{tree}"}
	}
	out, err := git.run(ctx, args...)
	if err != nil {
		return nil, fmt.Errorf("could not read what its commits change (%v): look with git show before you check it out, merge, pop or push it", err)
	}
	if untracked {
		if u, uerr := git.run(ctx, "ls-tree", "-r", "-z", "--name-only", "--full-tree", tip+"^3^{tree}"); uerr == nil {
			out += "\x00" + u
		}
	}
	var files []string
	for _, n := range strings.Split(out, "\x00") {
		if n != "" {
			files = append(files, n)
		}
	}
	return files, nil
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
