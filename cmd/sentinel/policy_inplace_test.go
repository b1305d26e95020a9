package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// `policy check --in-place` judges as exec does: discarding uncommitted
// work asks on the person's files, is workspace work in a copy and under
// a checkpoint; --checkpointed alone is a usage error.
func TestPolicyCheckInPlace(t *testing.T) {
	ws, env := policyWorkspace(t)
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{nil, "allow"},
		{[]string{"--in-place"}, "ask"},
		{[]string{"--in-place", "--checkpointed"}, "allow"},
	} {
		args := append(append([]string{"policy", "check", "--json"}, c.flags...), "--", "git checkout -- .")
		r := runSentinelBin(t, filepath.Join(ws, "src"), "", env, args...)
		var out struct{ Decision, Rule string }
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil {
			t.Fatalf("%v: exit %d: %s %s", c.flags, r.code, r.stdout, r.stderr)
		}
		if out.Decision != c.want {
			t.Errorf("%v: git checkout -- . is %s by %s, want %s", c.flags, out.Decision, out.Rule, c.want)
		}
	}
	r := runSentinelBin(t, ws, "", env, "policy", "check", "--checkpointed", "--", "ls")
	if r.code == 0 || !strings.Contains(r.stderr, "--checkpointed needs --in-place") {
		t.Fatalf("--checkpointed alone: exit %d: %s", r.code, r.stderr)
	}
}
