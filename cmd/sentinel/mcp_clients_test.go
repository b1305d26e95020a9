package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/mcpserver"
	"github.com/sentinelhq/sentinel/internal/mcpserver/mcpauth"
)

// sentinel mcp clients lists what registered with the server of a config
// (its hostile name made safe) and revokes it by id.
func TestMCPClientsListsAndRevokes(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	cfgFile := filepath.Join(t.TempDir(), "mcp.toml")
	store, err := mcpserver.OAuthClients(cfgFile)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	hs := httptest.NewServer(mux)
	defer hs.Close()
	as, err := mcpauth.New(mcpauth.Config{Issuer: hs.URL, Resource: hs.URL + "/mcp", Tools: []string{"read"}, Notify: func(mcpauth.Notice) {}}, store)
	if err != nil {
		t.Fatal(err)
	}
	as.Mount(mux)
	resp, err := http.Post(hs.URL+mcpauth.PathRegister, "application/json", strings.NewReader(`{"client_name":"Evil\u001b[2J\u202eName","redirect_uris":["https://claude.ai/api/mcp/auth_callback"],"token_endpoint_auth_method":"none"}`))
	if err != nil {
		t.Fatal(err)
	}
	var reg struct {
		ClientID string `json:"client_id"`
	}
	json.NewDecoder(resp.Body).Decode(&reg)
	resp.Body.Close()

	run := func(args ...string) (string, error) {
		var out bytes.Buffer
		cmd := newMCPClientsCmd()
		cmd.SetOut(&out)
		cmd.SetErr(&out)
		cmd.SetArgs(args)
		err := cmd.Execute()
		return out.String(), err
	}
	out, err := run("--config", cfgFile)
	if err != nil || !strings.Contains(out, reg.ClientID) || !strings.Contains(out, "(no consent yet)") || !strings.Contains(out, "https://claude.ai/api/mcp/auth_callback") {
		t.Fatalf("list: %v\n%s", err, out)
	}
	if strings.ContainsAny(out, "\x1b\u202e") {
		t.Fatalf("the client's name reached the terminal raw: %q", out)
	}
	if out, err = run("--config", cfgFile, "--revoke", reg.ClientID); err != nil || !strings.Contains(out, "revoked "+reg.ClientID) {
		t.Fatalf("revoke: %v %s", err, out)
	}
	if out, _ = run("--config", cfgFile); !strings.Contains(out, "no OAuth clients") {
		t.Fatalf("after revoke: %s", out)
	}
	if _, err = run("--config", cfgFile, "--revoke", "smc_nope"); err == nil || !strings.Contains(err.Error(), "sentinel mcp clients") {
		t.Fatalf("an unknown id: %v", err)
	}
	if _, err = run(); err == nil || !strings.Contains(err.Error(), "--config") {
		t.Fatalf("no --config: %v", err)
	}
}
