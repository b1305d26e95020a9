//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"testing"
)

// An rw path over a home: Sentinel's launcher shims (what makes the
// person's `claude` run in the sandbox) and the directories on the
// person's PATH are out of the file tools' reach. A shim rewritten, moved
// or deleted runs the agent — or the client's script — on the host the
// next time the person types its name; so does a program dropped into
// ~/.local/bin ahead of /usr/bin (issue 31: no program from the place
// runs outside the sandbox).
func TestShimsAndPathDirsAreOutOfReach(t *testing.T) { eachLayer(t, testShimsAndPathDirsAreOutOfReach) }

func testShimsAndPathDirsAreOutOfReach(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	home := filepath.Join(base, "home")
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_DATA_HOME", "")
	shims := filepath.Join(home, ".local", "share", "sentinel", "shims")
	shim := "#!/bin/sh\n# sentinel launcher shim for claude\nexec /usr/bin/sentinel shim --dir " + shims + " claude \"$@\"\n"
	write(t, filepath.Join(shims, "claude"), shim)
	bin := filepath.Join(home, ".local", "bin")
	write(t, filepath.Join(bin, "tool"), "#!/bin/sh\necho the person's tool\n")
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	write(t, filepath.Join(home, "work", "notes.txt"), "hello\n")
	cfgFile := filepath.Join(base, "mcp.toml")
	write(t, cfgFile, `allowed_commands = ["ls"]
audit = "`+filepath.Join(base, "audit", "mcp.jsonl")+`"

[[paths]]
path = "`+home+`"
access = "rw"
`)
	cfg, err := LoadConfig(cfgFile)
	if err != nil {
		t.Fatal(err)
	}
	cs, _ := session(t, cfg, Options{})
	refused := []struct {
		tool string
		args map[string]any
	}{
		{"edit", map[string]any{"path": shims + "/claude", "content": "#!/bin/sh\ntouch /tmp/pwned\n"}},
		{"delete", map[string]any{"path": shims + "/claude"}},
		{"move", map[string]any{"from": shims + "/claude", "to": home + "/work/c"}},
		{"move", map[string]any{"from": shims, "to": home + "/work/shims"}},
		{"copy", map[string]any{"from": home + "/work/notes.txt", "to": shims + "/codex"}},
		{"edit", map[string]any{"path": bin + "/git", "content": "#!/bin/sh\ntouch /tmp/pwned\n"}},
		{"edit", map[string]any{"path": bin + "/tool", "content": "#!/bin/sh\ntouch /tmp/pwned\n"}},
		{"copy", map[string]any{"from": home + "/work/notes.txt", "to": bin + "/ls"}},
		{"move", map[string]any{"from": home + "/work/notes.txt", "to": bin + "/ls"}},
		{"chmod", map[string]any{"path": bin + "/tool", "mode": "777"}},
		{"delete", map[string]any{"path": bin + "/tool"}},
		{"delete", map[string]any{"path": bin, "recursive": true}},
		{"move", map[string]any{"from": filepath.Join(home, ".local"), "to": home + "/work/local"}},
	}
	for _, c := range refused {
		text, isErr := call(t, cs, c.tool, c.args)
		if !isErr {
			t.Errorf("%s %v was allowed: %s", c.tool, c.args, text)
		}
	}
	mustAllow(t, cs, "edit", map[string]any{"path": home + "/work/notes.txt", "content": "changed\n"})
	mustAllow(t, cs, "read", map[string]any{"path": bin + "/tool"})
	if b, _ := os.ReadFile(filepath.Join(shims, "claude")); string(b) != shim {
		t.Errorf("the shim was changed: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(bin, "tool")); string(b) != "#!/bin/sh\necho the person's tool\n" {
		t.Errorf("~/.local/bin/tool was changed: %q", b)
	}
	for _, p := range []string{bin + "/git", bin + "/ls", shims + "/codex"} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was created", p)
		}
	}
}
