package policy

import "testing"

// TestFindExecReaderWithNoNameTestReadsSecrets: find with no test on the
// name runs its -exec command on every file, .env among them
// (findeveryfile.go); before, cat of every file was allowed as finding
// files.
func TestFindExecReaderWithNoNameTestReadsSecrets(t *testing.T) {
	checkModes(t, []modeCase{
		{"find . -type f -exec cat {} +", "ask", "ask"},
		{"find . -exec cat {} \\;", "ask", "ask"},
		{"find src -type f -exec head -n 5 {} \\;", "ask", "ask"},
		{"find . -type f -exec grep -h KEY {} +", "ask", "ask"},
		{"find . -type f -exec wc -l {} +", "allow", "allow"},
		{"find . -type f -exec ls -la {} +", "allow", "allow"},
		{"find . -name '*.go' -exec cat {} +", "allow", "allow"},
		{"find . -maxdepth 0 -exec ls {} \\;", "allow", "allow"},
	})
}
