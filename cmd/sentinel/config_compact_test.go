package main

import (
	"strings"
	"testing"
)

// Plain `sentinel config` is compact: the keys with a value, how many are
// unset, and the remembered approvals by id and what they match; --all
// lists every key.
func TestConfigIsCompactAndNamesTemplates(t *testing.T) {
	repo, env := templatesProject(t)
	if r := sentinel(t, repo, env, "templates", "add", "--scope", "project", "--prefix", "go test"); r.code != 0 {
		t.Fatalf("templates add: exit %d: %s", r.code, r.stderr)
	}
	r := sentinel(t, repo, env, "config")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	out := squeeze(r.stdout)
	if strings.Contains(out, "unset\n") || strings.Contains(out, "supervisor.relay.command") {
		t.Errorf("plain config lists unset keys:\n%s", r.stdout)
	}
	for _, want := range []string{"coder  claude  default", "more keys unset: sentinel config show --all lists every key",
		"remembered approvals (1;", "project  prefix", "go test (any args) in this project"} {
		if !strings.Contains(out, want) {
			t.Errorf("plain config lacks %q:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, "go test") {
		t.Errorf("the template's match is not shown:\n%s", r.stdout)
	}
	all := sentinel(t, repo, env, "config", "--all")
	if all.code != 0 || !strings.Contains(squeeze(all.stdout), "supervisor.relay.command  -  unset") {
		t.Errorf("config --all: exit %d\n%s%s", all.code, all.stdout, all.stderr)
	}
}
