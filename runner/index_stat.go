package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"

	"github.com/sentinelhq/sentinel/internal/gitindex"
)

// Each index entry holds its file's stat record, and git trusts it: a
// coder that may write the index (in place it may: git add and commit
// need it) can change a tracked file and rewrite that file's record to
// match, and the person's git status, git diff and git commit -a pass the
// change by for good. At the end of an in-place run every entry whose
// record the run rewrote is hashed against what it stages; one that
// differs has its record cleared (as `git update-index --cacheinfo` leaves
// it: git reads the file again) and is named, as sentinel mcp does after
// each command (internal/mcpserver/gitindex_stat.go).

// clearForgedStat clears in the project's index the stat records the run
// wrote that do not match the file the entry stages, and returns their
// paths, sorted.
func (w *Workspace) clearForgedStat() ([]string, error) {
	if w == nil || w.project == nil || w.project.GitDir == "" {
		return nil, nil
	}
	start, err := os.ReadFile(projectIndexStart(w.Shadow))
	if err != nil {
		return nil, fmt.Errorf("read the index as it was: %w", err)
	}
	now, err := gitindex.Read(w.project.GitDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	es, hashLen, err := gitindex.StatChanged(start, now)
	if err != nil {
		return nil, err
	}
	stale := map[string]bool{}
	for _, e := range es {
		if s, err := gitindex.Stale(w.Dir, e, hashLen); s || err != nil {
			stale[e.Path] = true // unreadable: clearing the record only makes git look
		}
	}
	if len(stale) == 0 {
		return nil, nil
	}
	b, err := gitindex.WithoutStat(now, stale)
	if err == nil {
		err = gitindex.Replace(w.project.GitDir, now, b)
	}
	if err != nil {
		return nil, fmt.Errorf("clear the stat records the run forged: %w", err)
	}
	return slices.Sorted(maps.Keys(stale)), nil
}
