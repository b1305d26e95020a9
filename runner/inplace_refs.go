package runner

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sentinelhq/sentinel/internal/gitdir"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// In place the coder may write the project's refs (committing on a branch
// needs it), so it can also reset a branch, delete one, retag, detach HEAD
// or drop a stash. None of that is a file of the work tree, so the change
// report would not show it: the refs are recorded at the start and
// compared at the end, every move is listed, and a ref the person had that
// moved or went is flagged with the command that puts it back.

// refState is one git dir's refs at a moment (gitdir.ReadRefs: files or
// reftable, no git started).
type refState = gitdir.RefState

// RefMove is one ref that differs between the start and the end.
type RefMove struct {
	Ref    string `json:"ref"`
	Before string `json:"before,omitempty"` // "" when it is new
	After  string `json:"after,omitempty"`  // "" when it was deleted
	// Yours: the ref was the person's at the start and the coder moved or
	// deleted it (a new ref is never flagged).
	Yours bool `json:"yours,omitempty"`
	// Commits: how many ordinary commits of the coder's on the checked-out
	// branch moved it (its reflog's and HEAD's new lines, named here and
	// not again among the git dir's changes: gitrest.Commits).
	Commits int `json:"commits,omitempty"`
	// RunsLater: files that run code later among what the ref's commits
	// change (inplace_refs_later.go); Unreadable says why that could not
	// be read.
	RunsLater  []Flag `json:"runs_later,omitempty"`
	Unreadable string `json:"unreadable,omitempty"`
}

// String is one line of the change report.
func (m RefMove) String() string {
	short := func(id string) string {
		if len(id) > 12 && !strings.HasPrefix(id, "ref: ") {
			return id[:12]
		}
		return id
	}
	var s string
	switch {
	case m.Ref == "stash":
		s = fmt.Sprintf("stash: %s entries, now %s", m.Before, m.After)
	case m.Before == "":
		s = fmt.Sprintf("%s: new, at %s", m.Ref, short(m.After))
	case m.After == "":
		s = fmt.Sprintf("%s: deleted (was %s)", m.Ref, short(m.Before))
	default:
		s = fmt.Sprintf("%s: moved %s -> %s", m.Ref, short(m.Before), short(m.After))
	}
	if m.Commits > 0 {
		s += fmt.Sprintf(" (%d commit(s) the coder made on your checked-out branch; its reflog and HEAD's record them)", m.Commits)
	}
	if m.Yours {
		s += " [yours: " + m.restore() + "]"
	}
	s += m.laterText()
	if strings.HasPrefix(m.Ref, "refs/replace/") && m.After != "" {
		s += " [runs later: git uses another object's content for " + strings.TrimPrefix(m.Ref, "refs/replace/") + " on every command, a checkout included; git replace -d " + strings.TrimPrefix(m.Ref, "refs/replace/") + "]"
	}
	// Ref names and contents are the coder's files: one safe line each.
	return textsafe.Line(s)
}

// restore is how the person puts the ref back.
func (m RefMove) restore() string {
	switch {
	case m.Ref == "stash":
		return "dropped stash entries stay in git's objects until gc; git fsck --unreachable | grep commit finds them"
	case m.Ref == "HEAD" && strings.HasPrefix(m.Before, "ref: "):
		return "git checkout " + strings.TrimPrefix(strings.TrimPrefix(m.Before, "ref: "), "refs/heads/")
	case m.Ref == "HEAD":
		return "git checkout --detach " + m.Before
	case strings.HasPrefix(m.Before, "ref: "):
		return "git symbolic-ref " + m.Ref + " " + strings.TrimPrefix(m.Before, "ref: ")
	}
	return "git update-ref " + m.Ref + " " + m.Before
}

// refMoves compares two states: every changed ref, HEAD and the stash.
func refMoves(before, after *refState) []RefMove {
	var out []RefMove
	if before.Head != after.Head {
		out = append(out, RefMove{Ref: "HEAD", Before: before.Head, After: after.Head, Yours: true})
	}
	var names []string
	for n := range before.Refs {
		names = append(names, n)
	}
	for n := range after.Refs {
		if _, ok := before.Refs[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		b, a := before.Refs[n], after.Refs[n]
		if b == a || n == "refs/stash" && before.Stash != after.Stash {
			continue
		}
		out = append(out, RefMove{Ref: n, Before: b, After: a, Yours: b != ""})
	}
	if before.Stash != after.Stash {
		out = append(out, RefMove{Ref: "stash", Before: fmt.Sprint(before.Stash), After: fmt.Sprint(after.Stash), Yours: after.Stash < before.Stash})
	}
	return out
}

// refMoves is what the coder did to the project's refs, or a line saying
// why that cannot be told; nil when nothing moved or the place has no git.
func (g *gitGuard) refMoves(ctx context.Context) ([]RefMove, error) {
	if g == nil || g.p.GitDir == "" {
		return nil, nil
	}
	if g.refs == nil {
		return nil, fmt.Errorf("the refs were not recorded at the start: %v", g.refsErr)
	}
	after, err := gitdir.ReadRefs(g.p.GitDir, g.common)
	if err != nil {
		return nil, err
	}
	moves := refMoves(g.refs, after)
	g.refsRunLater(ctx, moves, after)
	g.mu.Lock()
	for i := range moves {
		moves[i].Commits = g.commits[moves[i].Ref]
	}
	g.mu.Unlock()
	return moves, nil
}

// refMovesText is the change report's lines for moves ("" for none).
func refMovesText(moves []RefMove) string {
	if len(moves) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nin place: %d ref(s) changed:", len(moves))
	for _, m := range moves {
		b.WriteString("\n  " + m.String())
	}
	return b.String()
}
