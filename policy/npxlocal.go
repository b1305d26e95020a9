package policy

import (
	"os"
	"path/filepath"
)

// projectBinInstalled reports whether, in every directory the command may
// run in, npx (npm exec, bunx) finds tool as the project's installed
// program: node_modules/.bin/TOOL in that directory or one above it up to
// the workspace's root, as npm exec looks (walking up from the nearest
// package's directory; a monorepo hoists its tools to the root's
// node_modules). The program found runs; nothing is fetched, at any mode
// (issue 32, off24: `cd apps/web && npx vitest run` with the root's
// node_modules/.bin/vitest). The bin must resolve inside the workspace.
func (x *cmdCtx) projectBinInstalled(tool string) bool {
	if len(x.cw.dirs) == 0 {
		return false
	}
	ws := x.c.canon(x.c.ws)
	for _, d := range x.cw.dirs {
		found := false
		for d = x.c.canon(d); within(d, ws); d = filepath.Dir(d) {
			bin := x.c.canon(rawJoin(d, "node_modules/.bin/"+tool))
			if _, err := os.Stat(bin); err == nil && within(bin, ws) {
				found = true
				break
			}
			if d == ws {
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
