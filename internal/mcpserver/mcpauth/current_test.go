package mcpauth

import (
	"strings"
	"sync"
	"testing"

	"golang.org/x/oauth2"
)

// TestATokenIsJudgedAgainstTheCurrentTools: a token granted before the
// config changed names only the tools the config grants now.
func TestATokenIsJudgedAgainstTheCurrentTools(t *testing.T) {
	e := newEnv(t)
	var mu sync.Mutex
	tools := []string{"read", "list", "exec"}
	e.srv.cfg.Current = func() ([]string, []string) {
		mu.Lock()
		defer mu.Unlock()
		return tools, []string{"/srv/app (rw)"}
	}
	c := e.publicClient()
	v := oauth2.GenerateVerifier()
	got := e.authorize(c, v, nil, "read", "list")
	st, tok := e.exchange(c, got.Get("code"), v)
	if st != 200 {
		t.Fatalf("token: %d %v", st, tok)
	}
	mu.Lock()
	tools = []string{"read", "exec"}
	mu.Unlock()
	info, err := e.srv.Verify(t.Context(), tok["access_token"].(string), nil)
	if err != nil || strings.Join(GrantedTools(info), ",") != "read" {
		t.Fatalf("after list was taken away the token still names: %v %v", GrantedTools(info), err)
	}
}
