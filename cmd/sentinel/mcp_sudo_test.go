package main

import (
	"strings"
	"testing"
)

func TestMCPInstallPointsAtTheSudoHelperWhenTheConfigListsSudoFiles(t *testing.T) {
	for extra, want := range map[string]bool{
		`token_env = "SENTINEL_MCP_TOKEN"`: false,
		`token_env = "SENTINEL_MCP_TOKEN"` + "\n[sudo]\nfiles = [\"/etc/nginx/nginx.conf\"]\n": true,
	} {
		dir, config, tokenFile, _, _ := installFixture(t, extra)
		_, notes, err := mcpPrepare(mcpScope{}, "/usr/local/bin/sentinel", config, "127.0.0.1:8765", tokenFile, dir+"/state")
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Contains(strings.Join(notes, "\n"), "/usr/local/bin/sentinel mcp sudo-helper --units ")
		if got != want {
			t.Errorf("config %q: the install's notes name the sudo helper: %v, want %v\n%s", extra, got, want, strings.Join(notes, "\n"))
		}
	}
}
