package checkpoint

import (
	"os"
	"path/filepath"
	"time"

	"github.com/sentinelhq/sentinel/internal/userstate"
)

// The bounds on points before single tool calls, for every surface that
// takes them (an in-place run's broker, `sentinel mcp`'s writing tools): at
// most MaxCallPoints a run, none for a place of more than
// MaxCallPointEntries entries, and none after one took longer than
// CallPointBudget.
const (
	MaxCallPoints       = 500
	MaxCallPointEntries = 100000
	CallPointBudget     = 2 * time.Second
)

// OwnDirs are Sentinel's own directories a place may hold (a place that
// is the home directory): the state dir, these checkpoints included, and
// the cache, which change during every run. Take's Options.Skip.
func OwnDirs() []string {
	var out []string
	if d, err := userstate.Dir(); err == nil {
		out = append(out, d)
	}
	if c, err := os.UserCacheDir(); err == nil {
		out = append(out, filepath.Join(c, "sentinel"))
	}
	return out
}
