package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ApplyMode is where a finished run's patch goes.
type ApplyMode string

// The --apply choices.
const (
	ApplyBranch   ApplyMode = "branch"   // commit onto a new branch sentinel/<run-id>
	ApplyWorktree ApplyMode = "worktree" // apply to the person's working tree
	ApplyNone     ApplyMode = "none"     // only keep the patch
)

// ParseApplyMode checks a --apply value.
func ParseApplyMode(s string) (ApplyMode, error) {
	switch m := ApplyMode(s); m {
	case ApplyBranch, ApplyWorktree, ApplyNone:
		return m, nil
	}
	return "", fmt.Errorf("--apply %q: want branch, worktree or none", s)
}

// Landing says what reached the real project.
type Landing struct {
	Mode     ApplyMode `json:"mode"`
	Branch   string    `json:"branch,omitempty"`
	Commit   string    `json:"commit,omitempty"`   // the coder's commit (branch mode)
	Snapshot string    `json:"snapshot,omitempty"` // the uncommitted-changes commit, when there was one
	Files    []string  `json:"files"`
	Nothing  bool      `json:"nothing,omitempty"` // nothing to land
	// Commits are the landed commits, oldest first, when the coder's own
	// commits landed one by one (land_commits.go); Squashed says why they
	// did not, when the coder made some. Commit is then the last.
	Commits  []string `json:"commits,omitempty"`
	Squashed string   `json:"squashed,omitempty"`
}

// CheckPaths refuses a change that would write outside the project, into
// git's own directory or into Sentinel's state (see landpath.go for how the
// names are compared), before anything touches the real project.
func CheckPaths(root string, files []string) error {
	for _, f := range files {
		if f == "" || filepath.IsAbs(f) || strings.HasPrefix(f, "/") || strings.HasPrefix(f, "\\") {
			return fmt.Errorf("refusing to land %q: absolute path", f)
		}
		for _, part := range strings.FieldsFunc(f, func(r rune) bool { return r == '/' || r == '\\' }) {
			// Windows drops trailing dots and spaces: ".. " is "..".
			if strings.TrimRight(part, ". ") == "" {
				return fmt.Errorf("refusing to land %q: path escapes the project", f)
			}
		}
		for _, part := range strings.Split(f, "/") {
			if part == "" {
				return fmt.Errorf("refusing to land %q: path escapes the project", f)
			}
		}
		if why := forbiddenPath(f); why != "" {
			return fmt.Errorf("refusing to land %q: %s", f, why)
		}
		if strings.ContainsRune(f, 0) {
			return fmt.Errorf("refusing to land %q: the name holds a NUL byte", f)
		}
		// No parent of the target may be a symlink in the real project.
		dir := root
		parts := strings.Split(f, "/")
		for _, part := range parts[:len(parts)-1] {
			dir = filepath.Join(dir, part)
			if st, err := os.Lstat(dir); err == nil && st.Mode()&os.ModeSymlink != 0 {
				return fmt.Errorf("refusing to land %q: %s is a symlink", f, dir)
			}
		}
	}
	return nil
}

// Land puts the change into the real project as mode says, without touching
// the person's current branch, index or working tree (except that worktree
// mode applies to the working tree: three-way, all or nothing, see
// apply_worktree.go). scratch is the run directory.
func Land(ctx context.Context, p *Project, snap Snapshot, ch Change, mode ApplyMode, runID, message, patchPath, scratch string) (Landing, error) {
	l := Landing{Mode: mode, Files: ch.Files}
	if err := CheckPaths(p.Root, ch.Files); err != nil {
		return l, err
	}
	switch mode {
	case ApplyNone:
		l.Nothing = ch.Empty()
		return l, nil
	case ApplyWorktree:
		if ch.Empty() {
			l.Nothing = true
			return l, nil
		}
		return l, applyWorktree(ctx, p, snap, patchPath, scratch, ch.Files)
	}
	if ch.Empty() && !snap.Dirty {
		l.Nothing = true
		return l, nil
	}
	g := gitCmd{dir: p.Root}
	head := snap.Commit
	if snap.Dirty {
		l.Snapshot = snap.Commit
	}
	l.Branch = "sentinel/" + runID
	if _, err := g.line(ctx, "rev-parse", "--verify", "-q", "refs/heads/"+l.Branch); err == nil {
		return l, fmt.Errorf("create branch %s: it already exists", l.Branch)
	}
	if !ch.Empty() {
		// Built in a quarantine: the project's object store gets the
		// change only when the branch is about to point at it.
		q, err := newQuarantine(scratch, p)
		if err != nil {
			return l, err
		}
		defer q.remove()
		gq := g.with(q.env()...)
		index := filepath.Join(scratch, "land.index")
		defer os.Remove(index)
		gi := gq.with("GIT_INDEX_FILE=" + index)
		commit, err := landingCommits(ctx, gi, gq.with(personIdentityEnv(p.Root)...), snap, ch, message, patchPath, scratch, &l)
		if err != nil {
			return l, err
		}
		if err := q.migrate(); err != nil {
			return l, err
		}
		head = commit
		l.Commit = commit
	}
	// The ref update is the landing: a stop before it lands nothing (the
	// objects migrated above are unreferenced), and once it runs it is not
	// cut short.
	if ctx.Err() != nil {
		return l, errLandingRolledBack
	}
	// The intent is on record before the ref changes (landing_record.go).
	if err := beginLanding(p, runID, Landing{Mode: l.Mode, Branch: l.Branch, Commit: l.Commit, Snapshot: l.Snapshot, Files: l.Files}, head); err != nil {
		return l, err
	}
	crashPoint("branch-intent")
	// An empty old value makes update-ref refuse to overwrite an existing branch.
	if _, err := g.run(context.WithoutCancel(ctx), "update-ref", "-m", "sentinel: land run "+runID, "refs/heads/"+l.Branch, head, ""); err != nil {
		endLanding(p, runID) // the ref did not change: nothing landed
		return l, fmt.Errorf("create branch %s: %w", l.Branch, err)
	}
	crashPoint("branch-landed")
	return l, nil
}
