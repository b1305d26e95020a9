package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// landingCommits builds the landing's commits in the quarantine (gi: its
// index, gc: commits as the person) and returns the head. The last tree is
// always the snapshot with the verified patch at patchPath applied; the
// coder's own commits (ch.Coder), when they apply in order, come before it
// with their messages, and what they leave out of that tree lands as one
// more commit with ch.Coder.Rest. Otherwise it is one commit with message,
// and l.Squashed says why when the coder had commits.
func landingCommits(ctx context.Context, gi, gc gitCmd, snap Snapshot, ch Change, message, patchPath, scratch string, l *Landing) (string, error) {
	if _, err := gi.run(ctx, "read-tree", snap.Commit); err != nil {
		return "", err
	}
	if _, err := gi.run(ctx, "apply", "--cached", "--binary", "--whitespace=nowarn", patchPath); err != nil {
		return "", fmt.Errorf("build the landing commit: %w", err)
	}
	final, err := gi.line(ctx, "write-tree")
	if err != nil {
		return "", err
	}
	if ch.Coder != nil && len(ch.Coder.List) > 0 {
		head, commits, why, err := coderCommitsOnto(ctx, gi, gc, snap, ch.Coder, final, scratch)
		if err != nil {
			return "", err
		}
		if why == "" {
			l.Commits = commits
			return head, nil
		}
		l.Squashed = why
	}
	commit, err := gc.line(ctx, "commit-tree", final, "-p", snap.Commit, "-m", message)
	if err != nil {
		return "", err
	}
	return commit, nil
}

// coderCommitsOnto replays the coder's commits onto the snapshot, each its
// own patch, then the rest up to final. why is set, and nothing is used,
// when a commit does not apply.
func coderCommitsOnto(ctx context.Context, gi, gc gitCmd, snap Snapshot, cc *CoderCommits, final, scratch string) (head string, commits []string, why string, err error) {
	if _, err := gi.run(ctx, "read-tree", snap.Commit); err != nil {
		return "", nil, "", err
	}
	patch := filepath.Join(scratch, "land-commit.diff")
	defer os.Remove(patch)
	head, tree := snap.Commit, ""
	for _, c := range cc.List {
		if err := writeFileIn(scratch, "land-commit.diff", c.Patch, 0o600); err != nil {
			return "", nil, "", err
		}
		if len(c.Patch) > 0 {
			if _, err := gi.run(ctx, "apply", "--cached", "--binary", "--whitespace=nowarn", patch); err != nil {
				return "", nil, fmt.Sprintf("the coder's commit %s does not apply again: %v", short(c.ID), err), nil
			}
		}
		if tree, err = gi.line(ctx, "write-tree"); err != nil {
			return "", nil, "", err
		}
		commits = append(commits, tree) // the trees for now; the commits below
	}
	rest := tree != final
	for i, c := range cc.List {
		trailers := cc.Trailers
		if !rest && i == len(cc.List)-1 {
			trailers = cc.LastTrailers
		}
		if head, err = gc.line(ctx, "commit-tree", commits[i], "-p", head, "-m", withTrailers(c.Message, trailers)); err != nil {
			return "", nil, "", err
		}
		commits[i] = head
	}
	if rest {
		if head, err = gc.line(ctx, "commit-tree", final, "-p", head, "-m", cc.Rest); err != nil {
			return "", nil, "", err
		}
		commits = append(commits, head)
	}
	return head, commits, "", nil
}
