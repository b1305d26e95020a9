package policy

import "testing"

// TestGitDashedPrograms: git-push is the program `git push` runs, judged
// as git push (Dicklesworthstone/destructive_command_guard#400).
func TestGitDashedPrograms(t *testing.T) {
	checkClass(t, []classCase{
		{`git-push --force origin main`, "deny"},
		{`git-push origin +main`, "deny"},
		{`git-status`, "allow"},
		{`git-log --oneline -5`, "allow"},
	})
}
