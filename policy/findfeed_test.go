package policy

import "testing"

// TestFindFeedsXargsItsStartingPoints: find | xargs CMD runs CMD on paths
// below find's starting points, or on them at -maxdepth 0 (findfeed.go).
func TestFindFeedsXargsItsStartingPoints(t *testing.T) {
	checkModes(t, []modeCase{
		{"find ~ -maxdepth 0 | xargs rm -rf", "deny", "deny"},
		{"find ~/.ssh -type f | xargs rm -f", "deny", "deny"},
		{"find / -maxdepth 1 -name etc | xargs -I{} rm -rf {}", "deny", "deny"},
		// off28: with the sandbox off, xargs over find's workspace names is
		// judged as the tool given one name (xargslisted_off.go); these
		// asked off before only because xargs alone asks.
		{"find . -name '*.go' | xargs wc -l", "allow", "allow"},
		{"find src -type f | xargs grep -l TODO", "allow", "allow"},
		{"find ~ -name '*.go' | xargs wc -l", "ask", "ask"},
		{"find . -name '*.go' | xargs rm -f", "ask", "ask"},
	})
}
