package runner

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// In place the coder may write the project's index (git add and commit
// need it), so it can stage content the work tree does not hold: a
// trojaned Makefile staged, then the original copied back over the file.
// The work tree is unchanged, yet `git checkout -- Makefile` or a plain
// `git commit` takes the coder's version. The index is copied at the start
// (into the run's shadow dir and its checkpoint) and compared at the end:
// every staged entry that changed is reported, and one whose staged
// content differs from the file is flagged DANGEROUS.

// StagedChange is one index entry that differs between start and end.
type StagedChange struct {
	Path   string `json:"path"`
	Before string `json:"before,omitempty"` // "mode blob" at the start; "" when not staged
	After  string `json:"after,omitempty"`  // "mode blob" at the end; "" when removed
	// Differs: the staged content is not the file in the work tree, so a
	// checkout or commit takes the coder's staged version.
	Differs bool `json:"differs,omitempty"`
	// Later: the path runs code later (FlaggedFiles).
	Later string `json:"later,omitempty"`
	// Hidden: the run changed the file, and the index it left keeps git
	// from seeing it (hiddenChanges).
	Hidden bool `json:"hidden,omitempty"`
	// StatCleared: the run forged the entry's stat record to hide a change
	// of the file from git, and the record was cleared (index_stat.go).
	StatCleared bool `json:"stat_cleared,omitempty"`
}

// String is one line of the change report.
func (s StagedChange) String() string {
	var l string
	switch {
	case s.Hidden:
		l = s.Path + ": changed in the work tree, but your index hides it from git (marked assume-unchanged or skip-worktree, or its stat record forged): git status, git diff, git stash and git checkout pass it by" +
			" [DANGEROUS: `git update-index --no-assume-unchanged --no-skip-worktree -- " + s.Path + " && touch " + s.Path + "` shows it again]"
	case s.StatCleared && s.Before == s.After:
		l = s.Path + ": changed in the work tree, and the run wrote a stat record for it in your index that would make git status, git diff and git commit pass the change by; the record was cleared, git reads the file again"
	case s.Before == "":
		l = s.Path + ": newly staged"
	case s.After == "":
		l = s.Path + ": taken out of the index"
	default:
		l = s.Path + ": staged content changed"
	}
	if s.Differs {
		l += " [DANGEROUS: staged content differs from the file: `git checkout -- " + s.Path + "` or `git commit` would take the coder's version — `git restore --staged " + s.Path + "`]"
	}
	if s.StatCleared && s.Before != s.After {
		l += " [the stat record the run forged for it in your index was cleared: git reads the file again]"
	}
	if s.Later != "" {
		l += " [runs code later: " + s.Later + "]"
	}
	return textsafe.Line(l)
}

func projectIndexStart(shadow string) string { return shadow + ".index-start" }

// recordIndex copies the project's index at the start (none: nothing).
func (w *Workspace) recordIndex() error {
	if w.project.GitDir == "" {
		return nil
	}
	err := copyWholeGitIndex(context.Background(), w.project.GitDir, projectIndexStart(w.Shadow))
	if os.IsNotExist(err) {
		return os.WriteFile(projectIndexStart(w.Shadow), nil, 0o600)
	}
	return err
}

// stagedEntries reads an index file through the shadow git dir (never the
// project's config): path -> "mode blob" for stage 0..3 entries. An empty
// file is an empty index.
func (w *Workspace) stagedEntries(ctx context.Context, index string) (map[string]string, error) {
	out := map[string]string{}
	if st, err := os.Stat(index); err != nil {
		if os.IsNotExist(err) {
			return out, nil
		}
		return nil, err
	} else if st.Size() == 0 {
		return out, nil
	}
	g := gitCmd{dir: w.Dir, env: []string{"GIT_DIR=" + w.Shadow, "GIT_WORK_TREE=" + w.Dir, "GIT_INDEX_FILE=" + index}}
	s, err := g.run(ctx, "ls-files", "-s", "-z")
	if err != nil {
		return nil, err
	}
	for _, rec := range strings.Split(s, "\x00") {
		meta, path, ok := strings.Cut(rec, "\t")
		if !ok {
			continue
		}
		f := strings.Fields(meta) // mode blob stage
		if len(f) != 3 {
			continue
		}
		v := f[0] + " " + f[1]
		if f[2] != "0" {
			v += " stage" + f[2]
		}
		if old, dup := out[path]; dup {
			v = old + ", " + v
		}
		out[path] = v
	}
	return out, nil
}

// stagedEntriesAgain is stagedEntries(ctx, index), answered with
// entries (read from the file prev) when index holds byte for byte what
// prev held: the same index file lists the same entries, and the index a
// run leaves untouched is the common case.
func (w *Workspace) stagedEntriesAgain(ctx context.Context, index, prev string, entries map[string]string) (map[string]string, error) {
	a, errA := os.ReadFile(index)
	b, errB := os.ReadFile(prev)
	if errA == nil && errB == nil && bytes.Equal(a, b) {
		return maps.Clone(entries), nil
	}
	return w.stagedEntries(ctx, index)
}

// sameIndexFile says whether the index files a and b are there and hold
// the same bytes, or a is absent and b is there but empty. Two absent
// files are not the same here: the caller then reads the index with git,
// as before (review: the comment said otherwise).
func sameIndexFile(a, b string) bool {
	x, errA := os.ReadFile(a)
	y, errB := os.ReadFile(b)
	if errA != nil || errB != nil {
		return os.IsNotExist(errA) && errB == nil && len(y) == 0
	}
	return bytes.Equal(x, y)
}

// stagedChanges compares the project's index now with the start, and
// names each of changed (the paths the run changed) that the index now
// hides from git (hiddenChanges), and each of forged, whose stat record
// the run forged and Sentinel cleared (clearForgedStat). It must run
// after inPlaceTree, so that the shadow index holds the work tree.
func (w *Workspace) stagedChanges(ctx context.Context, changed, forged []string) ([]StagedChange, error) {
	if w == nil || w.project == nil || w.project.GitDir == "" {
		return nil, nil
	}
	end := w.Shadow + ".index-end"
	if err := copyWholeGitIndex(ctx, w.project.GitDir, end); err != nil && !os.IsNotExist(err) {
		return nil, err
	} else if os.IsNotExist(err) {
		_ = os.Remove(end)
	}
	if len(changed) == 0 && len(forged) == 0 && sameIndexFile(end, projectIndexStart(w.Shadow)) {
		// The index holds byte for byte what it held at the start, so it
		// stages what it staged; nothing changed can hide behind it and no
		// stat record was forged: nothing for git to read.
		return nil, nil
	}
	before, err := w.stagedEntries(ctx, projectIndexStart(w.Shadow))
	if err != nil {
		return nil, fmt.Errorf("read the index as it was: %w", err)
	}
	after, err := w.stagedEntriesAgain(ctx, end, projectIndexStart(w.Shadow), before)
	if err != nil {
		return nil, fmt.Errorf("read the index: %w", err)
	}
	var out []StagedChange
	for path, b := range before {
		if a := after[path]; a != b {
			out = append(out, StagedChange{Path: path, Before: b, After: a})
		}
	}
	for path, a := range after {
		if _, ok := before[path]; !ok {
			out = append(out, StagedChange{Path: path, After: a})
		}
	}
	if len(out) == 0 && len(changed) == 0 && len(forged) == 0 {
		return nil, nil // the work tree's record would be read for nothing
	}
	work, err := w.stagedEntries(ctx, shadowIndex(w.Shadow))
	if err != nil {
		return nil, fmt.Errorf("read the work tree's record: %w", err)
	}
	hidden, err := w.hiddenChanges(ctx, end, after, work, changed)
	if err != nil {
		return nil, fmt.Errorf("ask git what it sees of the work tree: %w", err)
	}
	for _, p := range hidden {
		out = append(out, StagedChange{Path: p, Before: before[p], After: after[p], Hidden: true})
	}
	for _, p := range forged {
		if i := slices.IndexFunc(out, func(c StagedChange) bool { return c.Path == p }); i >= 0 {
			out[i].StatCleared = !out[i].Hidden // still hidden (a mark too): the DANGEROUS line stands
			continue
		}
		out = append(out, StagedChange{Path: p, Before: before[p], After: after[p], StatCleared: true})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	for i := range out {
		c := &out[i]
		c.Differs = !c.Hidden && c.After != "" && c.After != work[c.Path]
		if f := FlaggedFiles([]string{c.Path}, nil); len(f) > 0 {
			c.Later = f[0].Reason
		}
	}
	return out, nil
}

// stagedText is the change report's lines for staged changes.
func stagedText(st []StagedChange) string {
	if len(st) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nin place: %d staged path(s) changed in your index:", len(st))
	for _, s := range st {
		b.WriteString("\n  " + s.String())
	}
	return b.String()
}

// hiddenChanges are the paths of changed whose file in the work tree is
// not what the index at end stages (work: the work tree's own record,
// hashed from the files), yet git reading that index does not see it:
// the index may say not to look (assume-unchanged, skip-worktree), or
// hold a stat record the coder forged to match the changed file, which
// git trusts without reading the file. In place the coder may write the
// index (git add and commit need it); this is how it could hide a change
// from the person's git status for good. A file the person hid before
// the run and the coder left alone is not in changed.
func (w *Workspace) hiddenChanges(ctx context.Context, end string, after, work map[string]string, changed []string) ([]string, error) {
	var cand []string
	for _, p := range changed {
		a, wk := after[p], work[p]
		if a != "" && wk != "" && a != wk && !strings.Contains(a, "stage") {
			cand = append(cand, p)
		}
	}
	if len(cand) == 0 {
		return nil, nil
	}
	// diff-files reads the index and never writes it.
	g := gitCmd{dir: w.Dir, env: []string{"GIT_DIR=" + w.Shadow, "GIT_WORK_TREE=" + w.Dir, "GIT_INDEX_FILE=" + end}}
	s, err := g.run(ctx, "diff-files", "--name-only", "-z")
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, p := range strings.Split(s, "\x00") {
		seen[p] = true
	}
	var out []string
	for _, p := range cand {
		if !seen[p] {
			out = append(out, p)
		}
	}
	return out, nil
}
