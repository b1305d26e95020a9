package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
)

// claudeKeychainService is the Keychain item Claude Code keeps its login
// in on a Mac.
const claudeKeychainService = "Claude Code-credentials"

// macRunner runs a program by absolute path and says whether it exited 0.
type macRunner func(name string, args ...string) error

// macCapabilities is what this Mac can enforce: whether sandbox-exec ran
// a command under a profile rendered as a run's would be (so a profile
// the kernel will not compile shows here, not at a run), what Seatbelt
// enforces and what it does not, and where Claude Code's login is. It
// looks only whether the Keychain item exists (security without -w or
// -g prints no secret) and never reads it.
func macCapabilities(run macRunner, tmp string) Capabilities {
	var c Capabilities
	ws := filepath.Join(tmp, "ws")
	err := os.MkdirAll(ws, 0o700)
	var prof string
	if err == nil {
		prof, err = renderSeatbelt(PlanOf(Profile{Workspace: ws, TempDir: tmp, Net: NetProxy}, nil), "", 0)
	}
	if err == nil {
		err = run(sandboxExecPath, "-p", prof, "/usr/bin/true")
	}
	if err != nil {
		c.Checks = append(c.Checks, Check{Name: "seatbelt", Detail: fmt.Sprintf("%s did not run a command under Sentinel's profile: %v", sandboxExecPath, err),
			Fix: "report this with `sentinel doctor --json`; meanwhile only --sandbox off runs (unconfined)"})
	} else {
		c.Modes = []Mode{ModeSeatbelt}
		c.Checks = append(c.Checks, Check{Name: "seatbelt", OK: true,
			Detail: "enforces: files deny-by-default (workspace, caches, agent state, private temp writable; credentials and Keychains hidden), network only to Sentinel's proxy, four listed Mach services, no Apple Events, no inspecting other processes"})
	}
	c.Checks = append(c.Checks, Check{Name: "seatbelt limits", OK: true,
		Detail: "not on macOS: a private /tmp and loopback, denied_executables, places and the overlay workspace (Linux only); a Linux machine enforces more"})
	if run("/usr/bin/security", "find-generic-password", "-s", claudeKeychainService) == nil {
		c.Checks = append(c.Checks, Check{Name: "claude sign-in", OK: true,
			Detail: "Claude Code's login is in the Keychain (\"" + claudeKeychainService + "\"), which the sandbox keeps closed, so a sandboxed Claude Code cannot use it",
			Fix:    "for sandboxed runs set ANTHROPIC_API_KEY, or CLAUDE_CODE_OAUTH_TOKEN from `claude setup-token`"})
	}
	return c
}

// sandboxExecPath is macOS's sandbox-exec, by absolute path.
const sandboxExecPath = "/usr/bin/sandbox-exec"
