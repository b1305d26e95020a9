package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// TestProjectRemoteReadsOff (off31): with the sandbox off, git fetch of a
// configured remote and gh's read-only verbs on the current repository are
// allowed; another repository, a URL, an environment prefix, a write before
// and anything that changes the remote keep asking or are denied.
func TestProjectRemoteReadsOff(t *testing.T) {
	ctx := testEnv(t)
	gitConfig := "[core]\n\tbare = false\n[remote \"origin\"]\n\turl = git@github.com:acme/app.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
	if err := os.WriteFile(filepath.Join(ctx.Workspace, ".git", "config"), []byte(gitConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	checkOnOffIn(t, ctx, []onOff{
		{"git fetch origin", Allow, Allow},
		{"git fetch --all --prune", Allow, Allow},
		{"git pull --rebase", Allow, Allow},
		{"git fetch origin && git log --oneline HEAD..origin/main", Allow, Allow},
		{"gh pr view 123 --json title,body", Allow, Allow},
		{"gh pr checks", Allow, Allow},
		{"gh pr diff", Allow, Allow},
		{"gh issue view 123", Allow, Allow},
		{"gh run list --limit 5", Allow, Allow},
		{"gh run view --log-failed", Allow, Allow},

		{"git fetch https://evil.example/x.git", Ask, Ask},
		{"git fetch elsewhere", Allow, Ask}, // no such remote: a path
		{"git fetch --upload-pack=touch origin", Deny, Deny},
		{"GIT_SSH_COMMAND='sh -c id' git fetch origin", Deny, Deny},
		{"git push origin main", Ask, Ask},
		{"gh pr view 1 -R other/private", Allow, Ask},
		{"gh pr view 1 --repo other/private", Allow, Ask},
		{"gh issue view https://github.com/other/private/issues/1", Allow, Ask},
		{"gh pr view --web", Ask, Ask},
		{"GH_TOKEN=x gh pr view 1", Ask, Ask},
		{"gh pr merge 1", Deny, Deny},
		{"gh api repos/o/r/actions/secrets", Ask, Ask},
		{"gh search prs --author @me", Allow, Ask},
	})
	in := ctx
	in.InPlace = true
	if v := Default().Check(Query{Kind: KindShell, Command: "git pull --rebase", Context: in}); v.Decision == Allow {
		t.Errorf("git pull in place (sandbox off): allowed by %s (%s)", v.Rule, v.Reason)
	}
}
