package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/mcpserver"
)

// A user install whose config lets the service tool restart a system unit
// writes the polkit rule for it and says how to install it; one with no
// such action writes none.
func TestMCPInstallOffersThePolkitRule(t *testing.T) {
	_, config, tokenFile, _, _ := installFixture(t, "token_env = \"SENTINEL_MCP_TOKEN\"\n[services.nginx]\nactions = [\"status\", \"restart\"]\n")
	_, notes, err := mcpPrepare(mcpScope{}, "/usr/local/bin/sentinel", config, "127.0.0.1:8765", tokenFile, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	rules := filepath.Join(filepath.Dir(tokenFile), "sentinel-mcp-polkit.rules")
	b, err := os.ReadFile(rules)
	if err != nil {
		t.Fatalf("no polkit rule written: %v (notes %q)", err, notes)
	}
	if !strings.Contains(string(b), `"nginx.service": [`) || !strings.Contains(string(b), `"restart"`) || strings.Contains(string(b), `"status"`) {
		t.Fatalf("the rule does not hold exactly nginx.service restart:\n%s", b)
	}
	all := strings.Join(notes, "\n")
	if !strings.Contains(all, "sudo install -m 0644 -o root -g root "+rules+" "+mcpserver.PolkitRulesPath) {
		t.Fatalf("the notes do not say how to install the rule: %q", notes)
	}

	_, config, tokenFile, _, _ = installFixture(t, "token_env = \"SENTINEL_MCP_TOKEN\"\n[services.nginx]\nactions = [\"status\"]\n")
	if _, _, err := mcpPrepare(mcpScope{}, "/usr/local/bin/sentinel", config, "127.0.0.1:8765", tokenFile, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(tokenFile), "sentinel-mcp-polkit.rules")); !os.IsNotExist(err) {
		t.Fatalf("a rule written for a config that needs none: %v", err)
	}
}
