package policy

import "testing"

// TestFindFeedsXargsItsStartingPoints: find | xargs CMD runs CMD on paths
// below find's starting points, or on them at -maxdepth 0 (findfeed.go).
func TestFindFeedsXargsItsStartingPoints(t *testing.T) {
	checkModes(t, []modeCase{
		{"find ~ -maxdepth 0 | xargs rm -rf", "deny", "deny"},
		{"find ~/.ssh -type f | xargs rm -f", "deny", "deny"},
		{"find / -maxdepth 1 -name etc | xargs -I{} rm -rf {}", "deny", "deny"},
		{"find . -name '*.go' | xargs wc -l", "allow", "ask"},
		{"find src -type f | xargs grep -l TODO", "allow", "ask"},
	})
}
