package placeflags

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// A run-later file that sets environment variables where the person's
// shell, editor or tools load them (.envrc, .env*, .vscode/settings.json's
// terminal env, .mise.toml's [env]) can set Sentinel's own variables for
// the person's next launch: SENTINEL_SHIM_BYPASS=1 makes every shim run
// its agent bare, outside Sentinel (31-ipatk16). Such a file is flagged
// already (run-later); the reason says that it names a SENTINEL_ variable,
// which no file of the project has a reason to set.

// maxEnvFileRead bounds a run-later file read for the flag.
const maxEnvFileRead = 1 << 20

var sentinelVar = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`SENTINEL_[A-Za-z0-9_]+`) })

// SentinelEnv flags each changed run-later file of changes whose content
// now names a SENTINEL_ variable it did not name before. read is as
// GoToolchain's.
func SentinelEnv(changes []checkpoint.Change, read func(p string, e *checkpoint.Entry, after bool) []byte) []Flag {
	var out []Flag
	for _, c := range changes {
		if c.After == nil || c.After.Kind != checkpoint.KindFile {
			continue
		}
		if _, ok := policy.RunsLaterHere(c.Path); !ok {
			continue
		}
		now := read(c.Path, c.After, true)
		if now == nil {
			continue
		}
		var was []string
		if c.Before != nil && c.Before.Kind == checkpoint.KindFile {
			was = sentinelVarsIn(read(c.Path, c.Before, false))
		}
		var names []string
		for _, n := range sentinelVarsIn(now) {
			if !slices.Contains(was, n) {
				names = append(names, n)
			}
		}
		if len(names) > 0 {
			out = append(out, Flag{c.Path, Dangerous + "names Sentinel's own " + strings.Join(names, ", ") +
				": loaded into your shell, editor or agent, it can turn Sentinel off at your next launch (" + BypassVar + "=1 runs your agents bare)"})
		}
	}
	return out
}

// BypassVar is the shims' bypass variable (cmd/sentinel's BypassEnv).
const BypassVar = "SENTINEL_SHIM_BYPASS"

// sentinelVarsIn are the distinct SENTINEL_ names b holds, in order.
func sentinelVarsIn(b []byte) []string {
	var out []string
	for _, m := range sentinelVar().FindAll(b, 32) {
		if n := string(m); !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}
