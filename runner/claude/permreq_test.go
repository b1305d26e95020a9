package claude

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/claude/claudehook"
)

// TestARunsDenyGoesThroughClaudesPermissionStep: a run's Claude (sentinel
// run) gets a PermissionRequest hook and hook commands that turn Sentinel's
// deny into a PreToolUse "ask" and a PermissionRequest deny, which Claude
// shows as a decision with its reason (#37 point 14). In place (sentinel
// exec: no denyInsteadOfPrompting) and where a settings file's allow rule
// could apply (no managed policy, the person's settings read), PreToolUse
// keeps denying itself and no PermissionRequest hook is registered.
func TestARunsDenyGoesThroughClaudesPermissionStep(t *testing.T) {
	for _, tc := range []struct {
		name     string
		opts     Options
		deferred bool
	}{
		{"run", Options{}, true},
		{"run, managed", Options{Managed: true}, true},
		{"run, managed, person's settings", Options{Managed: true, UserSettings: true}, true},
		{"run, person's settings without a managed policy", Options{UserSettings: true}, false},
		{"in place", Options{Launch: []string{"/usr/bin/claude"}}, false},
		{"in place, managed", Options{Launch: []string{"/usr/bin/claude"}, Managed: true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Binary, tc.opts.Sentinel = "/usr/bin/claude", "/opt/sentinel"
			a := New(tc.opts)
			m, err := a.ManagedSettings(nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			argv, err := a.Argv("task")
			if err != nil {
				t.Fatal(err)
			}
			var managed map[string]any // as Claude reads it
			if b, err := json.Marshal(m); err != nil || json.Unmarshal(b, &managed) != nil {
				t.Fatalf("managed settings %v: %v", m, err)
			}
			for where, s := range map[string]map[string]any{"managed settings": managed, "--settings": settingsOf(t, argv)} {
				hooks, _ := s["hooks"].(map[string]any)
				_, has := hooks["PermissionRequest"]
				if has != tc.deferred {
					t.Errorf("%s: PermissionRequest hook registered = %v, want %v", where, has, tc.deferred)
				}
				for _, ev := range []string{"PreToolUse", "PermissionRequest"} {
					list, _ := hooks[ev].([]any)
					if len(list) == 0 {
						continue
					}
					e := list[0].(map[string]any)
					cmd := e["hooks"].([]any)[0].(map[string]any)["command"].(string)
					if got := strings.HasPrefix(cmd, claudehook.EnvDenyByPermissionRequest+"=1 "); got != tc.deferred {
						t.Errorf("%s: %s command %q carries the switch = %v, want %v", where, ev, cmd, got, tc.deferred)
					}
					if e["matcher"] != "*" {
						t.Errorf("%s: %s matcher = %v, want *", where, ev, e["matcher"])
					}
				}
			}
		})
	}
}
