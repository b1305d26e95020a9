package service

import "testing"

func TestAllowedApps(t *testing.T) {
	a := Agent{Program: "claude", Exe: "/usr/bin/dash", Argv: []string{"/bin/sh", "/opt/tools/claude"}}
	for _, apps := range [][]string{{"claude"}, {"/opt/tools/claude"}} {
		if !allowed(apps, a) {
			t.Errorf("allowed(%q) = false", apps)
		}
	}
	for _, apps := range [][]string{nil, {"codex"}, {"/usr/bin/claude"}, {"/opt/tools"}, {"sh"}} {
		if allowed(apps, a) {
			t.Errorf("allowed(%q) = true", apps)
		}
	}
}
