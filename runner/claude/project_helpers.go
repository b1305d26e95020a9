package claude

import (
	"fmt"
	"path/filepath"
)

// projectHelperKeys are the settings whose value is a command Claude Code
// runs itself, outside every hook, to get or refresh a credential: the
// command starts with the person's keys in its environment and its output
// becomes the key (or the telemetry headers) Claude Code sends. Measured
// with 2.1.332 under `sentinel exec -- claude -p`: a repository's
// .claude/settings.json apiKeyHelper ran at start with no hook asked
// (docs/replay/31-projcfg.md).
var projectHelperKeys = []string{"apiKeyHelper", "otelHeadersHelper", "awsAuthRefresh", "awsCredentialExport", "gcpAuthRefresh"}

// projectSettingsFiles are the project's settings files Claude Code reads
// under the run's managed policy (--setting-sources project,local).
var projectSettingsFiles = []string{filepath.Join(".claude", "settings.json"), filepath.Join(".claude", "settings.local.json")}

// checkProjectHelpers refuses a run whose project settings in workspace
// name a credential helper (projectHelperKeys): a coder's write in an
// earlier in-place run would otherwise run as Claude Code's own helper,
// unasked, with the person's keys. The person's own settings may name one.
func checkProjectHelpers(workspace string) error {
	if workspace == "" {
		return nil
	}
	for _, rel := range projectSettingsFiles {
		m, err := readSettings(filepath.Join(workspace, rel))
		if err != nil {
			continue // not JSON: Claude Code takes nothing from it either
		}
		for _, k := range projectHelperKeys {
			if _, ok := m[k]; ok {
				return fmt.Errorf("claude: %s names %q, a command Claude Code runs itself with your keys and no approval: remove it from that file (your own ~/.claude/settings.json may keep one)", filepath.Join(workspace, rel), k)
			}
		}
	}
	return nil
}
