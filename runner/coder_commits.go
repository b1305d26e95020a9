package runner

// The coder's own commits. A coder that commits in its copy splits its work
// and words its messages (a person's AGENTS.md may prescribe how); landing
// keeps both: each commit lands as it was made, in order, with its message,
// authored by the person and carrying Sentinel's trailers, and what the
// coder left uncommitted lands after them as one more commit. The last
// landed tree is always the verified one (Land builds it from the verified
// patch as for a single commit), so the coder's commits only split the
// history, never change what lands.
//
// The workspace's .git is the coder's: it is read with hardened git (no
// hooks, filters or drivers of its config run), only its refs and objects,
// and each commit becomes a patch that is applied again in Sentinel's
// quarantine, so nothing of the coder's object store enters the project.
// When the commits cannot be kept as they are (a merge, a HEAD that does
// not descend from the run's start, a commit touching a path no landing may
// write, too many or too big), the work lands as one commit and the landing
// says why.

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
)

// maxCoderCommits is how many of the coder's commits land one by one; a
// longer history lands as one commit.
const maxCoderCommits = 100

// CoderCommit is one commit the coder made in its copy.
type CoderCommit struct {
	ID      string   `json:"id"`      // in the coder's copy, never in the project
	Message string   `json:"message"` // cleaned (cleanCoderMessage)
	Files   []string `json:"files"`
	Patch   []byte   `json:"-"`
}

// CoderCommits are the coder's commits, oldest first, and the message of
// the commit for what it left uncommitted.
type CoderCommits struct {
	List []CoderCommit
	Rest string // the message for the uncommitted rest, trailers included
	// Trailers are added to each commit's own message; the last landed
	// commit, when it is the coder's, gets LastTrailers (what verified the
	// landed tree) instead.
	Trailers, LastTrailers string
}

// Commits reads the commits the coder made on top of the snapshot in its
// copy, oldest first. None (nil, "") when it made none; nil and a reason
// when they cannot land one by one.
func (w *Workspace) Commits(ctx context.Context) ([]CoderCommit, string, error) {
	if w.inPlace {
		return nil, "", nil
	}
	g := gitCmd{dir: w.Dir, env: []string{"GIT_DIR=" + filepath.Join(w.Dir, ".git")}, wrap: w.wrapView()}
	head, err := g.line(ctx, "rev-parse", "--verify", "-q", "HEAD^{commit}")
	if err != nil || head == "" {
		return nil, "the copy's HEAD is not a commit", nil
	}
	base := w.Snapshot.Commit
	if head == base {
		return nil, "", nil
	}
	if _, err := g.run(ctx, "merge-base", "--is-ancestor", base, head); err != nil {
		return nil, "the coder's HEAD does not descend from the run's start", nil
	}
	merges, err := g.line(ctx, "rev-list", "--merges", base+".."+head)
	if err != nil {
		return nil, "", fmt.Errorf("read the coder's commits: %w", err)
	}
	if merges != "" {
		return nil, "the coder's history holds a merge", nil
	}
	out, err := g.line(ctx, "rev-list", "--reverse", base+".."+head)
	if err != nil {
		return nil, "", fmt.Errorf("read the coder's commits: %w", err)
	}
	ids := strings.Fields(out)
	if len(ids) > maxCoderCommits {
		return nil, fmt.Sprintf("the coder made %d commits (more than %d)", len(ids), maxCoderCommits), nil
	}
	lim := w.Limits.orDefault()
	var list []CoderCommit
	parent := base
	for _, id := range ids {
		raw, err := g.run(ctx, "cat-file", "commit", id)
		if err != nil {
			return nil, "", fmt.Errorf("read the coder's commit %s: %w", short(id), err)
		}
		names, err := g.run(ctx, "diff-tree", "-r", "-z", "--name-only", "--no-renames", "--no-commit-id", parent, id)
		if err != nil {
			return nil, "", fmt.Errorf("read the coder's commit %s: %w", short(id), err)
		}
		var files []string
		for _, n := range strings.Split(names, "\x00") {
			if n != "" {
				files = append(files, n)
			}
		}
		if err := CheckPaths(w.project.Root, files); err != nil {
			return nil, fmt.Sprintf("the coder's commit %s: %v", short(id), err), nil
		}
		patch := &capBuffer{max: lim.MaxTotalBytes}
		err = g.stream(ctx, patch, "diff-tree", "-p", "--binary", "--no-ext-diff", "--no-textconv",
			"--no-color", "--no-renames", "--no-commit-id", parent, id)
		if patch.over {
			return nil, fmt.Sprintf("the coder's commit %s is larger than the change limit", short(id)), nil
		}
		if err != nil {
			return nil, "", fmt.Errorf("read the coder's commit %s: %w", short(id), err)
		}
		list = append(list, CoderCommit{ID: id, Message: cleanCoderMessage(commitMessage(raw)), Files: files, Patch: patch.buf.Bytes()})
		parent = id
	}
	return list, "", nil
}

// commitMessage is the message of a raw commit object: what follows the
// headers' blank line.
func commitMessage(raw string) string {
	if i := strings.Index(raw, "\n\n"); i >= 0 {
		return raw[i+2:]
	}
	return ""
}

// cleanCoderMessage is the coder's message as it lands: no control
// characters but newlines and tabs, no trailer line that would pass for
// Sentinel's own (Sentinel-*), trailing space trimmed, and never empty.
func cleanCoderMessage(msg string) string {
	msg = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || !unicode.IsControl(r) {
			return r
		}
		return -1
	}, msg)
	var keep []string
	for _, l := range strings.Split(msg, "\n") {
		if strings.HasPrefix(strings.ToLower(strings.TrimSpace(l)), "sentinel-") {
			continue
		}
		keep = append(keep, strings.TrimRight(l, " \t"))
	}
	msg = strings.Trim(strings.Join(keep, "\n"), "\n")
	if strings.TrimSpace(msg) == "" {
		return "(the coder's commit had no message)"
	}
	return msg
}

// withTrailers is a coder's message with Sentinel's trailers after it.
func withTrailers(msg, trailers string) string {
	return msg + "\n\n" + trailers
}
