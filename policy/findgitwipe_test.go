package policy

import "testing"

// TestFindDeletesGitDirs: a find whose name test picks .git (-name .git,
// -iname .git, -path '*/.git', -regex '.*/\.git') and that deletes what it
// picks (-delete, -exec rm, or fed to xargs rm) deletes the project's own
// history (./.git is among what it walks) or another repository's: denied
// as rm -rf .git is. polcorp15's `find . -type d -name .git | xargs rm -rf`
// (carlos-emr/carlos#281, google-gemini/gemini-cli#19729) asked.
func TestFindDeletesGitDirs(t *testing.T) {
	ctx := testEnv(t)
	on := ctx
	on.Sandboxed = true
	e := Default()
	for _, cmd := range []string{
		"find . -type d -name .git | xargs rm -rf", "find . -type d -name .git -exec rm -rf {} +", "find . -name '.git' -prune -exec rm -rf {} \\;",
		"find src/.. -iname .git -exec rm -rf {} +", "find . -path '*/.git' -exec rm -rf {} +", "find . -name .git -print0 | xargs -0 rm -rf",
	} {
		for _, c := range []Context{on, ctx} {
			if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: c}); v.Decision != Deny {
				t.Errorf("sandbox %v: %q is %s by %s (%s), want deny", c.Sandboxed, cmd, v.Decision, v.Rule, v.Reason)
			}
		}
	}
	for _, cmd := range []string{"find . -name .gitkeep -delete", "find . -name .git -type d", "find . -name '.gitignore' -exec cat {} +"} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: on}); v.Decision == Deny {
			t.Errorf("%q denied by %s (%s)", cmd, v.Rule, v.Reason)
		}
	}
}
