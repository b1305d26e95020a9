package main

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// Plain `sentinel config` is compact: the keys with a value, how many are
// unset, and the remembered approvals by id and what they match; --all
// lists every key.
func TestConfigIsCompactAndNamesTemplates(t *testing.T) {
	repo, env := templatesProject(t)
	if r := e2etest.Sentinel(t, repo, env, "templates", "add", "--scope", "project", "--prefix", "go test"); r.Code != 0 {
		t.Fatalf("templates add: exit %d: %s", r.Code, r.Stderr)
	}
	r := e2etest.Sentinel(t, repo, env, "config")
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	out := e2etest.Squeeze(r.Stdout)
	if strings.Contains(out, "unset\n") || strings.Contains(out, "supervisor.relay.command") {
		t.Errorf("plain config lists unset keys:\n%s", r.Stdout)
	}
	for _, want := range []string{"coder  claude  default", "more keys unset: sentinel config show --all lists every key",
		"remembered approvals (1;", "project  prefix", "go test (any args) in this project"} {
		if !strings.Contains(out, want) {
			t.Errorf("plain config lacks %q:\n%s", want, r.Stdout)
		}
	}
	if !strings.Contains(r.Stdout, "go test") {
		t.Errorf("the template's match is not shown:\n%s", r.Stdout)
	}
	all := e2etest.Sentinel(t, repo, env, "config", "--all")
	if all.Code != 0 || !strings.Contains(e2etest.Squeeze(all.Stdout), "supervisor.relay.command  -  unset") {
		t.Errorf("config --all: exit %d\n%s%s", all.Code, all.Stdout, all.Stderr)
	}
}
