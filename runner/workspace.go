package runner

// The workspace is a `git clone --shared` of the real repository, checked
// out at a snapshot commit (HEAD plus the person's uncommitted changes).
//
// Why a shared clone and not `git worktree add`: a worktree shares the real
// .git — its refs, hooks and config — so a coder could rewrite a branch or
// plant a hook that runs later in the person's checkout. A shared clone has
// its own refs, hooks and config and only borrows the object store through
// objects/info/alternates, which git never writes to. Its origin remote is
// removed so even an unsandboxed coder has no configured way to push back.
//
// Sentinel never trusts the workspace's own .git afterwards: the patch is
// computed through a separate "shadow" git directory in the run directory,
// which the coder cannot write, with hardened git (see git.go), so config,
// hooks or attributes the coder planted run nothing on Sentinel's side.

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sentinelhq/sentinel/sandbox"
)

// Workspace is the coder's disposable copy of the project.
type Workspace struct {
	Dir      string // the copy the coder works in
	Shadow   string // Sentinel's own git dir for reading the copy
	Snapshot Snapshot
	// Limits bound the change Diff computes; zero values are the defaults.
	Limits  Limits
	project *Project
	// inPlace: Dir is the person's project itself (sentinel exec,
	// stage_inplace.go), never removed or moved; agent is then where the
	// agent's per-run state lives.
	inPlace bool
	agent   string
	guard   *gitGuard // in place: the place's git dirs at the start (inplace_gitguard.go)
	// stopGitWatch ends the in-place watch on the place's git dirs (gitGuard.watch).
	stopGitWatch func()
	checkpoint   *inPlaceCheckpoint // in place: the place before the coder acted (checkpoint_inplace.go)
	// Kind is WorkspaceClone or WorkspaceOverlay (workspace_overlay.go);
	// an overlay's Lower is its shared checkout, read through view.
	Kind  string
	Lower string
	runID string
	view  *sandbox.View
}

// CreateWorkspace clones the project into dir at the snapshot. shadowDir is
// a directory the coder cannot write (inside the run directory).
func CreateWorkspace(ctx context.Context, p *Project, snap Snapshot, dir, shadowDir, branch string) (*Workspace, error) {
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return nil, err
	}
	g := gitCmd{dir: p.Root}
	if _, err := g.run(ctx, "clone", "--shared", "--no-checkout", "--quiet", "--", p.Root, dir); err != nil {
		return nil, fmt.Errorf("create workspace: %w", err)
	}
	w := gitCmd{dir: dir}
	if _, err := w.run(ctx, "remote", "remove", "origin"); err != nil {
		return nil, err
	}
	if _, err := w.run(ctx, "checkout", "--quiet", "-B", branch, snap.Commit); err != nil {
		return nil, fmt.Errorf("check out the snapshot: %w", err)
	}
	if err := initShadow(ctx, p, shadowDir, filepath.Join(dir, ".git", "index")); err != nil {
		return nil, err
	}
	return &Workspace{Dir: dir, Shadow: shadowDir, Snapshot: snap, project: p, Kind: WorkspaceClone}, nil
}

// initShadow makes the shadow git dir: bare, borrowing the project's
// objects, its index seeded from the checkout's index, which is trustworthy
// now, before the coder starts: its stat data lets the final `git add`
// re-hash only what changed.
func initShadow(ctx context.Context, p *Project, shadowDir, index string) error {
	g := gitCmd{dir: p.Root}
	if _, err := g.run(ctx, "init", "--quiet", "--bare", "--", shadowDir); err != nil {
		return fmt.Errorf("create shadow git dir: %w", err)
	}
	alt := filepath.Join(shadowDir, "objects", "info", "alternates")
	if err := os.WriteFile(alt, []byte(p.ObjectsDir()+"\n"), 0o600); err != nil {
		return err
	}
	if err := copyFile(index, shadowIndex(shadowDir)); err != nil {
		return fmt.Errorf("seed the shadow index: %w", err)
	}
	return nil
}

func shadowIndex(shadow string) string { return filepath.Join(shadow, "sentinel.index") }

func (w *Workspace) shadowGit() gitCmd {
	return gitCmd{dir: w.Dir, env: []string{
		"GIT_DIR=" + w.Shadow,
		"GIT_WORK_TREE=" + w.Dir,
		"GIT_INDEX_FILE=" + shadowIndex(w.Shadow),
	}, wrap: w.wrapView()}
}

// Change is the coder's work relative to the snapshot.
type Change struct {
	Tree  string   // the workspace's tree (objects live in the shadow git dir)
	Patch []byte   // git diff --binary against the snapshot
	Files []string // changed paths
	// Left are new paths in the workspace that a patch may never carry
	// (.git, .sentinel, nested repositories): left out, named for the record.
	Left []string
	// Coder, when set, are the coder's own commits to land one by one
	// (coder_commits.go); a part of a change accepted in review has none.
	Coder *CoderCommits
}

// Empty reports whether the coder changed nothing.
func (c Change) Empty() bool { return len(c.Files) == 0 }

// Diff computes the coder's change with hardened git through the shadow git
// dir. Files the project ignores are not part of it, and neither is any path
// a patch may never carry (landpath.go: .sentinel/, .git at any depth, in
// any spelling a file system takes for them) nor another repository nested
// in the workspace. A change over w.Limits is refused (limits.go) before its
// patch is written out; the patch is collected up to the limit, never more.
func (w *Workspace) Diff(ctx context.Context) (Change, error) {
	// The shadow git dir is Sentinel's (in the user's state dir) and
	// nothing below writes its config: one scan for drivers serves all.
	g, err := w.shadowGit().scanned(ctx)
	if err != nil {
		return Change{}, fmt.Errorf("read the workspace: %w", err)
	}
	lim := w.Limits.orDefault()
	// New files, minus what may never land. git lists a nested repository
	// as "dir/": its files are another repository's, never the patch's.
	out, err := g.run(ctx, "ls-files", "-z", "-o", "--exclude-standard", "--", ".")
	if err != nil {
		return Change{}, fmt.Errorf("read the workspace: %w", err)
	}
	var add, left []string
	for _, n := range strings.Split(out, "\x00") {
		switch {
		case n == "":
		case strings.HasSuffix(n, "/") || forbiddenPath(n) != "":
			left = append(left, n)
		default:
			add = append(add, n)
		}
	}
	if err := w.checkSizes(ctx, g, lim, add); err != nil {
		return Change{}, err
	}
	// Tracked files the coder edited or deleted. Their names come from the
	// snapshot, so none of them is a forbidden path.
	if _, err := g.run(ctx, "add", "-u", "--", "."); err != nil {
		return Change{}, fmt.Errorf("read the workspace: %w", err)
	}
	if len(add) > 0 {
		list := []byte(strings.Join(add, "\x00") + "\x00")
		if _, err := g.with("GIT_LITERAL_PATHSPECS=1").input(list).run(ctx, "add", "--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
			return Change{}, fmt.Errorf("read the workspace: %w", err)
		}
	}
	// From here on git reads the shadow index and objects only, never the
	// work tree (write-tree, diff-index --cached, cat-file, diff --cached):
	// no overlay view is needed, and each would cost a helper start and a
	// mount. (diff --cached may reuse a work-tree file whose stat data
	// matches its index entry: outside the view that is the upper layer's
	// own file, the one the view shows; a file only in the lower layer is
	// read from the objects. The content is the same either way.)
	gi := g.objectsOnly()
	tree, err := gi.line(ctx, "write-tree")
	if err != nil {
		return Change{}, err
	}
	files, newBlobs, err := rawChanges(ctx, gi, w.Snapshot.Commit)
	if err != nil {
		return Change{}, err
	}
	for _, f := range files {
		if why := forbiddenPath(f); why != "" {
			return Change{}, fmt.Errorf("refusing the change: %q %s", f, why)
		}
	}
	if err := checkBlobSizes(ctx, gi, lim, newBlobs); err != nil {
		return Change{}, err
	}
	patch := &capBuffer{max: lim.MaxTotalBytes}
	err = gi.stream(ctx, patch, "diff", "--cached", "--binary", "--no-ext-diff", "--no-textconv",
		"--no-color", "--no-renames", w.Snapshot.Commit)
	if patch.over {
		return Change{}, lim.totalTooBig(0)
	}
	if err != nil {
		return Change{}, err
	}
	return Change{Tree: tree, Patch: patch.buf.Bytes(), Files: files, Left: left}, nil
}

// checkSizes refuses, before git reads them, new and modified files over
// the limits (by their size in the workspace), so a huge file is not even
// hashed. checkBlobSizes is the exact check afterwards.
func (w *Workspace) checkSizes(ctx context.Context, g gitCmd, lim Limits, untracked []string) error {
	out, err := g.run(ctx, "ls-files", "-z", "-m", "--", ".")
	if err != nil {
		return fmt.Errorf("read the workspace: %w", err)
	}
	names := append(strings.Split(out, "\x00"), untracked...)
	var total int64
	for _, n := range names {
		if n == "" {
			continue
		}
		st, err := os.Lstat(filepath.Join(w.Dir, filepath.FromSlash(n)))
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		if st.Size() > lim.MaxFileBytes {
			return lim.fileTooBig(n, st.Size())
		}
		total += st.Size()
	}
	if total > lim.MaxTotalBytes {
		return lim.totalTooBig(total)
	}
	return nil
}

// rawChanges lists the paths the shadow index changes against base and the
// blobs it adds (new content), from git's raw diff.
func rawChanges(ctx context.Context, g gitCmd, base string) (files, blobs []string, err error) {
	out, err := g.run(ctx, "diff-index", "--cached", "-z", "-r", "--no-renames", "--abbrev=64", base)
	if err != nil {
		return nil, nil, err
	}
	entries, err := parseRawDiff(out)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range entries {
		files = append(files, e.path)
		if e.status != "D" && e.newMode != "160000" {
			blobs = append(blobs, e.newOID+" "+e.path)
		}
	}
	return files, blobs, nil
}

// rawDiffEntry is one entry of git's raw diff output (-z).
type rawDiffEntry struct {
	oldMode, newMode, oldOID, newOID, status, path string
}

// parseRawDiff reads "-z" raw diff output: ":oldmode newmode oldsha newsha
// status\0path\0" per entry (no renames, so one path each).
func parseRawDiff(out string) ([]rawDiffEntry, error) {
	var entries []rawDiffEntry
	fields := strings.Split(out, "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		meta := strings.Fields(strings.TrimPrefix(fields[i], ":"))
		if len(meta) != 5 {
			return nil, fmt.Errorf("git diff: unexpected line %q", fields[i])
		}
		entries = append(entries, rawDiffEntry{meta[0], meta[1], meta[2], meta[3], meta[4], fields[i+1]})
	}
	return entries, nil
}

// checkBlobSizes refuses new content over the limits, by the size git
// stored. blobs are "sha path" pairs.
func checkBlobSizes(ctx context.Context, g gitCmd, lim Limits, blobs []string) error {
	if len(blobs) == 0 {
		return nil
	}
	var in strings.Builder
	for _, b := range blobs {
		sha, _, _ := strings.Cut(b, " ")
		in.WriteString(sha + "\n")
	}
	out, err := g.input([]byte(in.String())).run(ctx, "cat-file", "--batch-check=%(objectsize)")
	if err != nil {
		return err
	}
	sizes := strings.Fields(out)
	if len(sizes) != len(blobs) {
		return fmt.Errorf("git cat-file: %d sizes for %d files", len(sizes), len(blobs))
	}
	var total int64
	for i, s := range sizes {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return fmt.Errorf("git cat-file: size %q: %w", s, err)
		}
		if n > lim.MaxFileBytes {
			_, path, _ := strings.Cut(blobs[i], " ")
			return lim.fileTooBig(path, n)
		}
		total += n
	}
	if total > lim.MaxTotalBytes {
		return lim.totalTooBig(total)
	}
	return nil
}

// copyIndex copies an index file and gives the copy the original's mtime.
// Git trusts an entry whose file has the entry's size and mtime (to the
// second where git is built without USE_NSEC, as Debian's is) unless the
// entry is "racily clean": its mtime is no earlier than the index file's,
// so the file may have been written again in the second the index was;
// only then does git read the file. A copy with a later mtime turns such
// an entry into a trusted one, and a file staged and edited again within
// that second would be taken with its staged content.
func copyIndex(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat() // the file read below, even if git replaces src
	if err != nil {
		return err
	}
	if err := copyFrom(in, dst); err != nil {
		return err
	}
	return os.Chtimes(dst, st.ModTime(), st.ModTime())
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	return copyFrom(in, dst)
}

func copyFrom(in io.Reader, dst string) error {
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
