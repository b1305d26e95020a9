package policy

import "testing"

// TestWrappersAndPathProgramsNameTheirCommand: a wrapper with options the
// policy does not know, an opaque wrapper's -c text and a path-qualified
// program outside the workspace are denied when the command they name is
// (innerdeny.go); otherwise they ask as before.
func TestWrappersAndPathProgramsNameTheirCommand(t *testing.T) {
	checkModes(t, []modeCase{
		{"taskset -c 0 npm publish", "deny", "deny"},
		{"script -qc 'rm -rf ~' /dev/null", "deny", "deny"},
		{"strace -f -o /dev/null rm -rf ~", "deny", "deny"},
		{"/usr/bin/env -S rm -rf ~", "deny", "deny"},
		{"/usr/local/bin/npm publish", "deny", "deny"},
		{"/proc/self/root/bin/rm -rf ~", "deny", "deny"},
		{"/opt/homebrew/bin/git push --force origin main", "deny", "deny"},
		{"strace -f -E A=1 go test ./...", "ask", "ask"}, // off29: an option strace's reader does not know (tracers.go)
		{"taskset -c 0 go build ./...", "ask", "ask"},
		{"/usr/local/bin/go test ./...", "ask", "ask"},
		{"script -qc 'make test' /dev/null", "ask", "ask"},
	})
}
