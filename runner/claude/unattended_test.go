package claude

import (
	"testing"
)

// TestARunsClaudeRefusesWhatItsHookLeftUnanswered: a run's Claude Code
// (sentinel run) refuses a call its PreToolUse hook gave no answer for —
// killed, or ended at its timeout — instead of asking in its own dialog,
// where an Enter typed into the coder's pane would run it unchecked; auto
// and bypass modes, which run such a call at once, are off everywhere. In
// place (sentinel exec) the person keeps Claude's own dialog. Under a
// managed policy and in --settings (no sandbox to show one) alike.
func TestARunsClaudeRefusesWhatItsHookLeftUnanswered(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   Options
		refuse bool
	}{
		{"run", Options{Binary: "/usr/bin/claude", Sentinel: "/opt/sentinel"}, true},
		{"in place", Options{Binary: "/usr/bin/claude", Sentinel: "/opt/sentinel", Launch: []string{"/usr/bin/claude"}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := New(tc.opts)
			m, err := a.ManagedSettings(nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			argv, err := a.Argv("task")
			if err != nil {
				t.Fatal(err)
			}
			flag := settingsOf(t, argv)
			for where, s := range map[string]map[string]any{"managed settings": m, "--settings": flag} {
				perms, _ := s["permissions"].(map[string]any)
				if perms["disableAutoMode"] != "disable" || perms["disableBypassPermissionsMode"] != "disable" {
					t.Errorf("%s: auto or bypass mode is not disabled: %v", where, perms)
				}
				if got := perms["denyInsteadOfPrompting"] == true; got != tc.refuse {
					t.Errorf("%s: denyInsteadOfPrompting = %v, want %v: %v", where, got, tc.refuse, perms)
				}
			}
		})
	}
}
