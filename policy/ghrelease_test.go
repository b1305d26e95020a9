package policy

import "testing"

// TestGhReleaseReadsAreNotPublishing: gh release view and list read as
// gh pr view does (remotereads.go: allowed inside the sandbox, asked with
// it off); creating, uploading to, editing or deleting a release is
// publishing (polcorp7, issue 32 class 3).
func TestGhReleaseReadsAreNotPublishing(t *testing.T) {
	checkModes(t, []modeCase{
		{"gh release view v1.2.0", "allow", "ask"},
		{"gh release list --limit 5", "allow", "ask"},
		{"gh pr view 12", "allow", "ask"},
		{"gh release create v1.2.0 dist/*", "deny", "deny"},
		{"gh release upload v1.2.0 dist/app.tgz", "deny", "deny"},
		{"gh release edit v1.2.0 --draft=false", "deny", "deny"},
		{"gh release delete v1.2.0 -y", "deny", "deny"},
		{"gh release delete-asset v1.2.0 app.tgz", "deny", "deny"},
		{"gh release download v1.2.0", "!allow", "!allow"},
	})
}
