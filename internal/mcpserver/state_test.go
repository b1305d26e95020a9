//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/userstate"
)

// An rw path over a home holding Sentinel's state: the state dir (record
// key, service journal, backups), the user config dir, this server's
// config and its audit journal are out of every tool's reach, however they
// are named — a hard link is the same file, a directory above them cannot
// be moved or deleted whole — while the rest of the home works.
func TestSentinelsStateIsOutOfReach(t *testing.T) { eachLayer(t, testSentinelsStateIsOutOfReach) }

func testSentinelsStateIsOutOfReach(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	home := filepath.Join(base, "home")
	state := filepath.Join(home, "xstate", "sentinel")
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, "xstate"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "xdg"))
	if _, err := userstate.Key(); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(state, "service", "journal.jsonl"), "JOURNALSECRET\n")
	write(t, filepath.Join(home, "xdg", "sentinel", "templates.toml"), "# TEMPLATESECRET\n")
	// ~/.local/state/sentinel, where Sentinel keeps its state without
	// XDG_STATE_HOME, does not exist (yet): it is guarded by its path.
	if err := os.MkdirAll(filepath.Join(home, ".local", "state"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(home, "work", "notes.txt"), "hello\n")
	audit := filepath.Join(home, "audit", "mcp.jsonl")
	cfgFile := filepath.Join(home, "mcp.toml")
	write(t, cfgFile, `allowed_commands = ["ls"]
audit = "`+audit+`"

[[paths]]
path = "`+home+`"
access = "rw"
`)
	cfg, err := LoadConfig(cfgFile)
	if err != nil {
		t.Fatal(err)
	}
	cs, srv := session(t, cfg, Options{})
	if err := os.Link(cfgFile, filepath.Join(home, "alias.toml")); err != nil {
		t.Fatal(err)
	}
	key := filepath.Join(state, "record.key")
	if err := os.Link(key, filepath.Join(home, "work", "k")); err != nil {
		t.Fatal(err)
	}
	refused := []struct {
		tool string
		args map[string]any
	}{
		{"read", map[string]any{"path": key}},
		{"read", map[string]any{"path": home + "/xstate/../xstate/sentinel/record.key"}},
		{"read", map[string]any{"path": cfgFile}},
		{"read", map[string]any{"path": home + "/work/k"}},     // the record key, by its inode
		{"read", map[string]any{"path": home + "/alias.toml"}}, // the config, by its inode
		{"read", map[string]any{"path": audit}},
		{"list", map[string]any{"path": state}},
		{"search", map[string]any{"path": state, "pattern": "JOURNAL"}},
		{"edit", map[string]any{"path": home + "/xdg/sentinel/templates.toml", "content": "x"}},
		{"edit", map[string]any{"path": home + "/xdg/sentinel/policy.toml", "content": "x"}},
		{"move", map[string]any{"from": home + "/work", "to": home + "/.local/state/sentinel"}},
		{"copy", map[string]any{"from": home + "/work/notes.txt", "to": home + "/.local/state/sentinel"}},
		{"edit", map[string]any{"path": state + "/service/journal.jsonl", "content": "x"}},
		{"edit", map[string]any{"path": home + "/alias.toml", "content": "x"}},
		{"edit", map[string]any{"path": audit, "content": "x"}},
		{"copy", map[string]any{"from": key, "to": home + "/work/key"}},
		{"copy", map[string]any{"from": home + "/work/notes.txt", "to": state + "/planted"}},
		{"copy", map[string]any{"from": home + "/work/notes.txt", "to": cfgFile, "overwrite": true}},
		{"move", map[string]any{"from": audit, "to": home + "/work/gone.jsonl"}},
		{"move", map[string]any{"from": home + "/audit", "to": home + "/work/audit2"}},
		{"move", map[string]any{"from": home + "/xstate", "to": home + "/work/xstate"}},
		{"move", map[string]any{"from": home + "/work/notes.txt", "to": cfgFile, "overwrite": true}},
		{"delete", map[string]any{"path": audit}},
		{"delete", map[string]any{"path": home + "/audit", "recursive": true}},
		{"delete", map[string]any{"path": home + "/xstate", "recursive": true}},
		{"delete", map[string]any{"path": home + "/xdg", "recursive": true}},
		{"delete", map[string]any{"path": home + "/alias.toml"}},
		{"chmod", map[string]any{"path": state, "mode": "777"}},
		{"exec", map[string]any{"command": "ls", "cwd": state}},
	}
	for _, c := range refused {
		mustRefuse(t, cs, c.tool, c.args, ClassPathNotAllowed)
	}
	if got := mustAllow(t, cs, "search", map[string]any{"path": home, "pattern": "SECRET"}); !strings.Contains(got, "no matches") {
		t.Errorf("a search of the home found Sentinel's state: %s", got)
	}
	mustAllow(t, cs, "edit", map[string]any{"path": home + "/work/notes.txt", "content": "changed\n"})
	mustAllow(t, cs, "list", map[string]any{"path": home + "/.local/state"})
	for p, want := range map[string]string{state + "/service/journal.jsonl": "JOURNALSECRET\n", home + "/xdg/sentinel/templates.toml": "# TEMPLATESECRET\n"} {
		if b, _ := os.ReadFile(p); string(b) != want {
			t.Errorf("%s = %q", p, b)
		}
	}
	for _, p := range []string{key, audit, cfgFile, home + "/xdg/sentinel/policy.toml", home + "/.local/state/sentinel"} {
		if _, err := os.Stat(p); (err == nil) != (p != home+"/xdg/sentinel/policy.toml" && p != home+"/.local/state/sentinel") {
			t.Errorf("%s: %v", p, err)
		}
	}
	if calls := auditCalls(t, srv); len(calls) != len(refused)+3 {
		t.Errorf("the audit holds %d calls, want %d", len(calls), len(refused)+3)
	}
}
