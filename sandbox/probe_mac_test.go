package sandbox

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// doctor on a Mac: Seatbelt counts only when sandbox-exec ran a command
// under Sentinel's own profile; Claude Code's Keychain login is looked
// for, never read.
func TestMacCapabilities(t *testing.T) {
	var calls [][]string
	fake := func(sandboxOK, keychain bool) macRunner {
		return func(name string, args ...string) error {
			calls = append(calls, append([]string{name}, args...))
			switch name {
			case sandboxExecPath:
				if !sandboxOK {
					return errors.New("exit status 65")
				}
				if len(args) < 2 || args[0] != "-p" || !strings.Contains(args[1], "(deny default)") {
					t.Errorf("sandbox-exec ran without Sentinel's profile: %q", args)
				}
				return nil
			case "/usr/bin/security":
				if !keychain {
					return errors.New("exit status 44")
				}
				return nil
			}
			t.Errorf("ran %s", name)
			return errors.New("unexpected")
		}
	}
	c := macCapabilities(fake(true, true), t.TempDir())
	if !c.Enforceable() || !slices.Equal(c.Modes, []Mode{ModeSeatbelt}) {
		t.Fatalf("a working sandbox-exec: modes %v", c.Modes)
	}
	var sawClaude bool
	for _, ch := range c.Checks {
		sawClaude = sawClaude || ch.Name == "claude sign-in" && strings.Contains(ch.Fix, "ANTHROPIC_API_KEY")
	}
	if !sawClaude {
		t.Errorf("a Keychain login is not reported with the way to sign in inside: %+v", c.Checks)
	}
	for _, call := range calls {
		if call[0] == "/usr/bin/security" && (slices.Contains(call, "-w") || slices.Contains(call, "-g") || !slices.Equal(call[1:], []string{"find-generic-password", "-s", claudeKeychainService})) {
			t.Errorf("security was asked for more than whether the item exists: %q", call)
		}
	}
	c = macCapabilities(fake(false, false), t.TempDir())
	if c.Enforceable() || c.Checks[0].OK || c.Checks[0].Fix == "" {
		t.Fatalf("a sandbox-exec that failed counts as enforcing: %+v", c)
	}
	for _, ch := range c.Checks {
		if ch.Name == "claude sign-in" {
			t.Errorf("no Keychain item, yet: %+v", ch)
		}
	}
}
