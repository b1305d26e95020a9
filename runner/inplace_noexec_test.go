package runner

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// plantAgent writes a program at path (a node script when it ends in .js,
// else a shell script) that, whenever anything runs it, leaves a marker
// file; it returns the marker's path.
func plantAgent(t *testing.T, path string) string {
	t.Helper()
	marker := filepath.Join(t.TempDir(), "ran-on-host")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	body := "#!/bin/sh\ntouch '" + marker + "'\necho 9.9.9\n"
	if filepath.Ext(path) == ".js" {
		body = "require('fs').writeFileSync(" + strconv.Quote(marker) + ", ''); console.log('9.9.9')\n"
	}
	if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return marker
}

// Nothing of the project, nor a program found on PATH, runs on the host
// before the sandbox: choosing the agent and its preflight read files only
// (31.3). A project-local cli.js started through node, and an agent found
// first on PATH, leave no marker.
func TestInPlacePreflightRunsNothing(t *testing.T) {
	project := t.TempDir()
	t.Chdir(project)
	bin := filepath.Join(project, "node_modules", ".bin")
	var cases [][]string
	markers := map[string]string{}
	for _, pkg := range []struct{ dir, agent string }{
		{"@anthropic-ai/claude-code", "claude"}, {"@openai/codex", "codex"},
		{"@google/gemini-cli", "gemini"}, {"opencode-ai", "opencode"},
	} {
		cli := filepath.Join("node_modules", pkg.dir, "cli.js")
		markers["node "+cli] = plantAgent(t, filepath.Join(project, cli))
		cases = append(cases, []string{"node", cli})
		markers[pkg.agent] = plantAgent(t, filepath.Join(bin, pkg.agent))
		cases = append(cases, []string{pkg.agent})
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	for _, argv := range cases {
		a, err := newInPlaceAdapter(argv)
		if err != nil {
			t.Fatalf("%q: %v", argv, err)
		}
		if a.Name() == "command" {
			t.Fatalf("%q: not recognised as an agent", argv)
		}
		_ = a.Preflight() // its answer does not matter here; what it ran does
		key := argv[0]
		if len(argv) > 1 {
			key += " " + argv[1]
		}
		if _, err := os.Stat(markers[key]); err == nil {
			t.Errorf("%q: preflight ran the program on the host", argv)
		}
	}
}
