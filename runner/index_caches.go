package runner

import (
	"fmt"
	"os"
	"strings"

	"github.com/sentinelhq/sentinel/internal/gitindex"
)

// Beside its entries a git index holds extensions, and some are records
// git trusts instead of looking (UNTR, FSMN, TREE: internal/gitindex).
// In place the coder may write the index, so a forged one could hide a
// new or changed file from the person's next git status, or put the
// coder's tree in the person's next commit. Sentinel's own git never
// trusts the first two (hardgit), so the report sees through them; the
// person's git would not. So at the end of an in-place run each that is
// not byte for byte what the index held at the start is removed from the
// project's index under git's index.lock and named (gitindex.Cache).

// indexCachesText is the change report's lines for them ("" for none).
func indexCachesText(cs []gitindex.Cache) string {
	if len(cs) == 0 {
		return ""
	}
	var b strings.Builder
	for _, c := range cs {
		if c.Told() {
			b.WriteString("\nin place: " + c.String())
		}
	}
	return b.String()
}

// dropIndexCaches removes from the project's index each cache that is not
// what the index held at the start, and names each.
func (w *Workspace) dropIndexCaches() ([]gitindex.Cache, error) {
	if w == nil || w.project == nil || w.project.GitDir == "" {
		return nil, nil
	}
	start, err := os.ReadFile(projectIndexStart(w.Shadow))
	if err != nil {
		return nil, fmt.Errorf("read the index as it was: %w", err)
	}
	return gitindex.DropChanged(w.project.GitDir, start)
}
