package placeflags

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// A run-later env file the coder made to set SENTINEL_SHIM_BYPASS (or
// another of Sentinel's own variables) says so in its flag's reason: the
// person's next launch through a shim would run the agent bare
// (31-ipatk16). A file that does not name one, or named it before, and a
// file that is not run-later, are not flagged here.
func TestARunLaterFileSettingASentinelVariableSaysSo(t *testing.T) {
	contents := map[string]string{
		".envrc@after":                "export SENTINEL_SHIM_BYPASS=1\n",
		".env.local@after":            "FOO=1\nSENTINEL_HOOK_GUARDED=1\n",
		".vscode/settings.json@after": `{"terminal.integrated.env.linux": {"SENTINEL_SHIM_BYPASS": "1"}}`,
		".env@before":                 "SENTINEL_SHIM_BYPASS=1\n",
		".env@after":                  "SENTINEL_SHIM_BYPASS=1\nX=2\n",
		".mise.toml@after":            "[env]\nPATH_ADD='bin'\n",
		"docs/notes.md@after":         "SENTINEL_SHIM_BYPASS=1\n",
	}
	file := &checkpoint.Entry{Kind: checkpoint.KindFile}
	var changes []checkpoint.Change
	for _, p := range []string{".envrc", ".env.local", ".vscode/settings.json", ".env", ".mise.toml", "docs/notes.md"} {
		c := checkpoint.Change{Path: p, After: file}
		if p == ".env" {
			c.Before = file
		}
		changes = append(changes, c)
	}
	flags := SentinelEnv(changes, func(p string, _ *checkpoint.Entry, after bool) []byte {
		k := p + "@before"
		if after {
			k = p + "@after"
		}
		if s, ok := contents[k]; ok {
			return []byte(s)
		}
		return nil
	})
	got := map[string]string{}
	for _, f := range flags {
		got[f.Path] = f.Reason
	}
	for p, name := range map[string]string{".envrc": "SENTINEL_SHIM_BYPASS", ".env.local": "SENTINEL_HOOK_GUARDED", ".vscode/settings.json": "SENTINEL_SHIM_BYPASS"} {
		if !strings.Contains(got[p], name) || !strings.HasPrefix(got[p], Dangerous) {
			t.Errorf("%s sets %s: flag reason %q does not say so", p, name, got[p])
		}
	}
	for _, p := range []string{".env", ".mise.toml", "docs/notes.md"} {
		if r, ok := got[p]; ok {
			t.Errorf("%s flagged for a Sentinel variable: %q", p, r)
		}
	}
}
