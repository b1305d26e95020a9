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
//  3. the original contents are saved in the run directory and a signed
//     pending record is written; then every file is replaced (exclusive,
//     no-follow temp file + rename, through an os.Root at the project root,
//     never through a symlink); then the record is removed. A crash in step
//     3 leaves the record, and the next sentinel command in the project
//     restores the originals, once it has verified the record and the
//     saved originals (see records.go).

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
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

// pendingApply is the record left in the run directory while files are
// being replaced: which paths, what each held before (saved in
// apply-backup/<index>, with its hash and mode), and the temp names the
// apply may leave behind. It is signed and bound to the run id and the
// project root (see records.go); the restore recomputes every path from
// those and trusts nothing else in it.
type pendingApply struct {
	Run    string                 `json:"run"`
	Root   string                 `json:"root"`
	Paths  []string               `json:"paths"`
	Temps  []string               `json:"temps"`  // per path: the temp name its write uses
	Saved  map[string]savedOrigin `json:"saved"`  // paths that existed before
	Absent map[string]bool        `json:"absent"` // paths that did not exist before
	// Created are the directories the apply makes (none of them existed
	// before it), deepest first: a restore removes those left empty.
	Created []string `json:"created,omitempty"`
}

// savedOrigin is one original file kept in apply-backup/<Index>.
type savedOrigin struct {
	Index  int         `json:"index"`
	SHA256 string      `json:"sha256"`
	Mode   os.FileMode `json:"mode"`
}

const (
	pendingName = "apply.pending.json"
	backupName  = "apply-backup"
)

func pendingPath(runDir string) string { return filepath.Join(runDir, pendingName) }

// crashAfterWrites, when positive, makes applyWorktree exit the process
// after that many file replacements: the crash-safety tests use it to die
// in the middle of an apply. Only a binary built with -tags sentineltest
// reads it from the environment (SetTestCrashPoints).
var crashAfterWrites int

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
	// One process reads what changed between the snapshot and the result
	// and one the contents of both sides, whatever the number of files.
	sides, err := readTreeChanges(ctx, g, snap.Commit, theirsTree)
	if err != nil {
		return err
	}
	plan := applyPlan{Files: map[string]blob{}}
	var conflicts []string
	for _, f := range files {
		side, ok := sides[f]
		if !ok {
			continue // the result holds the snapshot's own: nothing to write
		}
		ours, err := worktreeBlob(p.Root, f)
		if err != nil {
			return err
		}
		final, ok, err := merge3(ctx, runDir, f, side.base, ours, side.theirs)
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
	id, err := p.runIDOfDir(runDir)
	if err != nil {
		return err
	}
	// The intent is on record before the working tree changes
	// (landing_record.go); writePlan marks it applied.
	if err := beginLanding(p, id, Landing{Mode: ApplyWorktree, Files: files}, ""); err != nil {
		return err
	}
	if err := writePlan(ctx, p, runDir, plan); err != nil {
		if _, perr := os.Lstat(pendingPath(runDir)); os.IsNotExist(perr) {
			endLanding(p, id) // nothing of it stayed in the working tree
		}
		return err
	}
	return nil
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

func worktreeBlob(root, path string) (blob, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return blob{}, err
	}
	defer r.Close()
	if err := realParents(r, path, false); os.IsNotExist(err) {
		return blob{absent: true}, nil
	} else if err != nil {
		return blob{}, fmt.Errorf("%w; nothing was applied", err)
	}
	st, err := r.Lstat(path)
	if os.IsNotExist(err) {
		return blob{absent: true}, nil
	}
	if err != nil {
		return blob{}, err
	}
	if !st.Mode().IsRegular() {
		return blob{}, fmt.Errorf("%s in your working tree is not a regular file; nothing was applied", path)
	}
	data, _, err := noFollowRead(r, path)
	if err != nil {
		return blob{}, err
	}
	mode := os.FileMode(0o644)
	if st.Mode()&0o111 != 0 {
		mode = 0o755
	}
	return blob{data: data, mode: mode}, nil
}

// writePlan saves the originals, records the apply as pending (signed),
// replaces every file, and clears the record. Every write into the working
// tree goes through an os.Root at the project root, refuses a symlinked or
// non-directory parent, and uses an exclusive, no-follow temp file.
//
// A stop (ctx cancelled) between two writes restores the originals and
// returns errLandingRolledBack: the apply happens whole or not at all.
func writePlan(ctx context.Context, p *Project, runDir string, plan applyPlan) error {
	id, err := p.runIDOfDir(runDir)
	if err != nil {
		return err
	}
	if len(plan.Files) == 0 {
		return markApplied(p, id)
	}
	if runDir, err = p.runDir(id); err != nil {
		return err
	}
	paths := make([]string, 0, len(plan.Files))
	for path := range plan.Files {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	if err := CheckPaths(p.Root, paths); err != nil {
		return err
	}
	root, err := os.OpenRoot(p.Root)
	if err != nil {
		return err
	}
	defer root.Close()
	rd, err := os.OpenRoot(runDir)
	if err != nil {
		return err
	}
	defer rd.Close()
	if err := rd.RemoveAll(backupName); err != nil {
		return err
	}
	if err := rd.Mkdir(backupName, 0o700); err != nil {
		return err
	}
	pend := pendingApply{Run: id, Root: p.Root, Paths: paths, Saved: map[string]savedOrigin{}, Absent: map[string]bool{}}
	for i, path := range paths {
		pend.Temps = append(pend.Temps, tempName(path))
		if err := realParents(root, path, false); os.IsNotExist(err) {
			pend.Absent[path] = true
			continue
		} else if err != nil {
			return err
		}
		data, st, err := noFollowRead(root, path)
		if os.IsNotExist(err) {
			pend.Absent[path] = true
			continue
		}
		if err != nil {
			return fmt.Errorf("save %s before applying: %w", path, err)
		}
		saved := backupName + "/" + strconv.Itoa(i)
		if err := replaceIn(rd, saved, tempName(saved), data, 0o600); err != nil {
			return fmt.Errorf("save %s before applying: %w", path, err)
		}
		pend.Saved[path] = savedOrigin{Index: i, SHA256: sha256Hex(data), Mode: st.Mode().Perm()}
	}
	pend.Created = dirsToCreate(root, plan, paths)
	if err := writeSigned(runDir, pendingName, purposePending, pend, id, p.Root); err != nil {
		return err
	}
	for i, path := range paths {
		if crashAfterWrites > 0 && i == crashAfterWrites {
			exit(137)
		}
		if ctx.Err() != nil {
			if rerr := restore(root, rd, &pend); rerr != nil {
				return fmt.Errorf("stopped during the apply, and restoring the originals failed: %v (they are in %s)", rerr, filepath.Join(runDir, backupName))
			}
			return errLandingRolledBack
		}
		if err := replaceFile(root, path, pend.Temps[i], plan.Files[path]); err != nil {
			if rerr := restore(root, rd, &pend); rerr != nil {
				return fmt.Errorf("apply %s: %v; and restoring the originals failed: %v (they are in %s)", path, err, rerr, filepath.Join(runDir, backupName))
			}
			return fmt.Errorf("apply %s: %w; your working tree was restored", path, err)
		}
	}
	crashPoint("worktree-written")
	if err := markApplied(p, id); err != nil {
		if rerr := restore(root, rd, &pend); rerr != nil {
			return fmt.Errorf("record the apply: %v; and restoring the originals failed: %v (they are in %s)", err, rerr, filepath.Join(runDir, backupName))
		}
		return fmt.Errorf("record the apply: %w; your working tree was restored", err)
	}
	crashPoint("worktree-applied")
	_ = rd.Remove(pendingName)
	return rd.RemoveAll(backupName)
}

// markApplied marks the run's landing record applied, when there is one
// (writePlan alone, in tests, has none).
func markApplied(p *Project, id string) error {
	if _, err := readLanding(p, id); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return markLandingApplied(p, id)
}

// replaceFile writes one path's final content (or removes it) through root.
func replaceFile(root *os.Root, path, tmp string, b blob) error {
	if b.absent {
		if err := realParents(root, path, false); os.IsNotExist(err) {
			return nil
		} else if err != nil {
			return err
		}
		if err := root.Remove(path); err != nil && !os.IsNotExist(err) {
			return err
		}
		return nil
	}
	if err := realParents(root, path, true); err != nil {
		return err
	}
	return replaceIn(root, path, tmp, b.data, b.mode)
}

// readPending reads and checks a run's pending-apply record: signed by
// Sentinel for this run and this project, with paths that stay inside it.
func readPending(p *Project, id string) (*pendingApply, error) {
	dir, err := p.runDir(id)
	if err != nil {
		return nil, err
	}
	var pend pendingApply
	if err := readSigned(dir, pendingName, purposePending, &pend, id, p.Root); err != nil {
		return nil, err
	}
	if pend.Run != id || pend.Root != p.Root || len(pend.Temps) != len(pend.Paths) {
		return nil, fmt.Errorf("%s: %w", pendingName, ErrUnverified)
	}
	if err := CheckPaths(p.Root, pend.Paths); err != nil {
		return nil, err
	}
	if err := CheckPaths(p.Root, pend.Created); err != nil {
		return nil, err
	}
	return &pend, nil
}

// restorePending puts back the originals of an interrupted apply of run id.
// The record must verify (readPending); the backups must match the hashes
// it holds, all of them, before anything is written.
func restorePending(p *Project, id string) error {
	pend, err := readPending(p, id)
	if err != nil {
		return err
	}
	root, err := os.OpenRoot(p.Root)
	if err != nil {
		return err
	}
	defer root.Close()
	rd, err := os.OpenRoot(p.RunDir(id))
	if err != nil {
		return err
	}
	defer rd.Close()
	return restore(root, rd, pend)
}

// restore writes the saved originals back through root (the project) from
// rd (the run directory) and clears the pending record.
func restore(root, rd *os.Root, pend *pendingApply) error {
	originals := map[string][]byte{}
	for _, path := range pend.Paths {
		if pend.Absent[path] {
			continue
		}
		s, ok := pend.Saved[path]
		if !ok {
			return fmt.Errorf("the pending apply does not say what %s held before; nothing was restored", path)
		}
		data, _, err := noFollowRead(rd, backupName+"/"+strconv.Itoa(s.Index))
		if err != nil {
			return fmt.Errorf("the saved original of %s: %w; nothing was restored", path, err)
		}
		if sha256Hex(data) != s.SHA256 {
			return fmt.Errorf("the saved original of %s was changed since Sentinel saved it; nothing was restored", path)
		}
		originals[path] = data
	}
	for i, path := range pend.Paths {
		if st, err := root.Lstat(pend.Temps[i]); err == nil && st.Mode().IsRegular() {
			_ = root.Remove(pend.Temps[i]) // left by the interrupted write
		}
		final := blob{absent: true}
		if !pend.Absent[path] {
			final = blob{data: originals[path], mode: pend.Saved[path].Mode.Perm()}
		}
		if err := replaceFile(root, path, tempName(path), final); err != nil {
			return err
		}
	}
	for _, dir := range pend.Created {
		// Only an empty directory goes: what anyone put there since stays.
		if st, err := root.Lstat(dir); err == nil && st.IsDir() {
			_ = root.Remove(dir)
		}
	}
	if err := rd.Remove(pendingName); err != nil {
		return err
	}
	return rd.RemoveAll(backupName)
}

// dirsToCreate are the directories writing plan's paths will make, deepest
// first.
func dirsToCreate(root *os.Root, plan applyPlan, paths []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		if plan.Files[p].absent {
			continue
		}
		parts := strings.Split(p, "/")
		dir := ""
		for _, part := range parts[:len(parts)-1] {
			dir = path.Join(dir, part)
			if seen[dir] {
				continue
			}
			seen[dir] = true
			if _, err := root.Lstat(dir); os.IsNotExist(err) {
				out = append(out, dir)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if di, dj := strings.Count(out[i], "/"), strings.Count(out[j], "/"); di != dj {
			return di > dj
		}
		return out[i] < out[j]
	})
	return out
}
