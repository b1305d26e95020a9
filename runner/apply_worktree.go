package runner

// Applying to the person's working tree is done by Sentinel itself, not by
// `git apply`, so that it is three-way and all or nothing:
//
//  1. the coder's result T is built in the object store (snapshot S plus the
//     patch, through a temporary index);
//  2. for every changed path the final content is decided from S (base), the
//     working tree now (ours) and T (theirs): a file the person has not
//     touched since S takes T; one only the person changed stays; one both
//     changed is merged with `git merge-file`, and any conflict refuses the
//     whole apply, naming the files, before anything is written;
//  3. the original contents are saved in the run directory and a pending
//     marker is written; then every file is replaced (temp file + rename);
//     then the marker is removed. A crash in step 3 leaves the marker, and
//     the next sentinel command in the project restores the originals.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// blob is one side of a three-way decision; absent means no file.
type blob struct {
	absent bool
	data   []byte
	mode   os.FileMode
}

func (b blob) same(o blob) bool {
	return b.absent == o.absent && (b.absent || bytes.Equal(b.data, o.data))
}

// applyPlan is what will be written: path → final content (absent: delete).
type applyPlan struct {
	Files map[string]blob
}

// pendingApply is the marker left in the run directory while files are
// being replaced: which paths, and where their originals are saved.
type pendingApply struct {
	Root   string          `json:"root"`
	Backup string          `json:"backup"`
	Paths  []string        `json:"paths"`
	Absent map[string]bool `json:"absent"` // paths that did not exist before
}

func pendingPath(runDir string) string { return filepath.Join(runDir, "apply.pending.json") }

// crashAfterWrites, when positive, makes applyWorktree exit the process
// after that many file replacements: the crash-safety tests use it to die
// in the middle of an apply. It is read from SENTINEL_TEST_CRASH_AFTER_WRITES.
var crashAfterWrites, _ = strconv.Atoi(os.Getenv("SENTINEL_TEST_CRASH_AFTER_WRITES"))

// exit is os.Exit; unit tests replace it to stop where a crash would.
var exit = os.Exit

// applyWorktree lands patchPath in the person's working tree, three-way and
// all or nothing.
func applyWorktree(ctx context.Context, p *Project, snap Snapshot, patchPath, runDir string, files []string) error {
	// The coder's result is built in a quarantine (quarantine.go): nothing
	// of it enters the project's object store, applied or refused.
	q, err := newQuarantine(runDir, p)
	if err != nil {
		return err
	}
	defer q.remove()
	g := gitCmd{dir: p.Root}.with(q.env()...)
	index := filepath.Join(runDir, "apply.index")
	defer os.Remove(index)
	gi := g.with("GIT_INDEX_FILE=" + index)
	if _, err := gi.run(ctx, "read-tree", snap.Commit); err != nil {
		return err
	}
	if _, err := gi.run(ctx, "apply", "--cached", "--binary", "--whitespace=nowarn", patchPath); err != nil {
		return fmt.Errorf("the patch does not apply to its own snapshot: %w", err)
	}
	theirsTree, err := gi.line(ctx, "write-tree")
	if err != nil {
		return err
	}
	plan := applyPlan{Files: map[string]blob{}}
	var conflicts []string
	for _, f := range files {
		base, err := treeBlob(ctx, g, snap.Commit, f)
		if err != nil {
			return err
		}
		theirs, err := treeBlob(ctx, g, theirsTree, f)
		if err != nil {
			return err
		}
		ours, err := worktreeBlob(p.Root, f)
		if err != nil {
			return err
		}
		final, ok, err := merge3(ctx, runDir, f, base, ours, theirs)
		if err != nil {
			return err
		}
		if !ok {
			conflicts = append(conflicts, f)
			continue
		}
		if !final.same(ours) || (!final.absent && final.mode != ours.mode) {
			plan.Files[f] = final
		}
	}
	if len(conflicts) > 0 {
		return fmt.Errorf("your working tree changed in the same places the coder did (%s); nothing was applied — land it on a branch instead: sentinel review RUN --approve", strings.Join(conflicts, ", "))
	}
	return writePlan(p.Root, runDir, plan)
}

// merge3 decides one path's final content.
func merge3(ctx context.Context, runDir, path string, base, ours, theirs blob) (blob, bool, error) {
	switch {
	case ours.same(base):
		return theirs, true, nil // the person did not touch it
	case theirs.same(base):
		return ours, true, nil // the coder's change is already undone or absent
	case ours.same(theirs):
		return ours, true, nil // both made the same change
	case base.absent || ours.absent || theirs.absent:
		return blob{}, false, nil // added or deleted on one side, changed on the other
	case bytes.IndexByte(ours.data, 0) >= 0 || bytes.IndexByte(theirs.data, 0) >= 0:
		return blob{}, false, nil // binary on both sides
	}
	dir, err := os.MkdirTemp(runDir, "merge-")
	if err != nil {
		return blob{}, false, err
	}
	defer os.RemoveAll(dir)
	names := []string{"ours", "base", "theirs"}
	for i, b := range []blob{ours, base, theirs} {
		if err := os.WriteFile(filepath.Join(dir, names[i]), b.data, 0o600); err != nil {
			return blob{}, false, err
		}
	}
	out, err := gitCmd{dir: dir}.run(ctx, "merge-file", "-p", "ours", "base", "theirs")
	if err != nil {
		return blob{}, false, nil // conflicts (merge-file exits with their count)
	}
	mode := ours.mode
	if ours.mode == base.mode {
		mode = theirs.mode
	}
	return blob{data: []byte(out), mode: mode}, true, nil
}

func treeBlob(ctx context.Context, g gitCmd, tree, path string) (blob, error) {
	ls, err := g.line(ctx, "ls-tree", "-z", tree, "--", path)
	if err != nil {
		return blob{}, err
	}
	ls = strings.TrimSuffix(ls, "\x00")
	if ls == "" {
		return blob{absent: true}, nil
	}
	fields := strings.Fields(ls) // mode type sha\tpath
	if len(fields) < 3 || fields[1] != "blob" {
		return blob{}, fmt.Errorf("%s: not a regular file in the patch (%s)", path, ls)
	}
	if fields[0] == "120000" {
		return blob{}, fmt.Errorf("%s is a symlink: Sentinel does not write symlinks into your working tree; land on a branch instead", path)
	}
	data, err := g.run(ctx, "cat-file", "blob", fields[2])
	if err != nil {
		return blob{}, err
	}
	mode := os.FileMode(0o644)
	if fields[0] == "100755" {
		mode = 0o755
	}
	return blob{data: []byte(data), mode: mode}, nil
}

func worktreeBlob(root, path string) (blob, error) {
	full := filepath.Join(root, filepath.FromSlash(path))
	st, err := os.Lstat(full)
	if os.IsNotExist(err) {
		return blob{absent: true}, nil
	}
	if err != nil {
		return blob{}, err
	}
	if !st.Mode().IsRegular() {
		return blob{}, fmt.Errorf("%s in your working tree is not a regular file; nothing was applied", path)
	}
	data, err := os.ReadFile(full)
	if err != nil {
		return blob{}, err
	}
	mode := os.FileMode(0o644)
	if st.Mode()&0o111 != 0 {
		mode = 0o755
	}
	return blob{data: data, mode: mode}, nil
}

// writePlan saves the originals, marks the apply pending, replaces every
// file, and clears the mark.
func writePlan(root, runDir string, plan applyPlan) error {
	if len(plan.Files) == 0 {
		return nil
	}
	paths := make([]string, 0, len(plan.Files))
	for p := range plan.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	backup := filepath.Join(runDir, "apply-backup")
	if err := os.RemoveAll(backup); err != nil {
		return err
	}
	pend := pendingApply{Root: root, Backup: backup, Paths: paths, Absent: map[string]bool{}}
	for _, p := range paths {
		full := filepath.Join(root, filepath.FromSlash(p))
		if _, err := os.Lstat(full); os.IsNotExist(err) {
			pend.Absent[p] = true
			continue
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(backup, p)), 0o700); err != nil {
			return err
		}
		if err := copyFileMode(full, filepath.Join(backup, p)); err != nil {
			return fmt.Errorf("save %s before applying: %w", p, err)
		}
	}
	b, _ := json.Marshal(pend)
	if err := writeAtomic(pendingPath(runDir), string(b)); err != nil {
		return err
	}
	for i, p := range paths {
		if crashAfterWrites > 0 && i == crashAfterWrites {
			exit(137)
		}
		if err := replaceFile(root, p, plan.Files[p]); err != nil {
			if rerr := restorePending(runDir); rerr != nil {
				return fmt.Errorf("apply %s: %v; and restoring the originals failed: %v (they are in %s)", p, err, rerr, backup)
			}
			return fmt.Errorf("apply %s: %w; your working tree was restored", p, err)
		}
	}
	_ = os.Remove(pendingPath(runDir))
	return os.RemoveAll(backup)
}

func replaceFile(root, p string, b blob) error {
	full := filepath.Join(root, filepath.FromSlash(p))
	if b.absent {
		if err := os.Remove(full); err != nil && !os.IsNotExist(err) {
			return err
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return err
	}
	tmp := full + ".sentinel-tmp"
	if err := os.WriteFile(tmp, b.data, b.mode); err != nil {
		return err
	}
	if err := os.Chmod(tmp, b.mode); err != nil {
		return err
	}
	return os.Rename(tmp, full)
}

// restorePending puts back the originals of an interrupted apply.
func restorePending(runDir string) error {
	raw, err := os.ReadFile(pendingPath(runDir))
	if err != nil {
		return err
	}
	var pend pendingApply
	if err := json.Unmarshal(raw, &pend); err != nil {
		return fmt.Errorf("%s: %w", pendingPath(runDir), err)
	}
	for _, p := range pend.Paths {
		full := filepath.Join(pend.Root, filepath.FromSlash(p))
		_ = os.Remove(full + ".sentinel-tmp")
		if pend.Absent[p] {
			if err := os.Remove(full); err != nil && !os.IsNotExist(err) {
				return err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := copyFileMode(filepath.Join(pend.Backup, p), full); err != nil {
			return err
		}
	}
	if err := os.Remove(pendingPath(runDir)); err != nil {
		return err
	}
	return os.RemoveAll(pend.Backup)
}

func copyFileMode(src, dst string) error {
	st, err := os.Stat(src)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	tmp := dst + ".sentinel-tmp"
	if err := os.WriteFile(tmp, data, st.Mode().Perm()); err != nil {
		return err
	}
	if err := os.Chmod(tmp, st.Mode().Perm()); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}
