package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// TestGitInAMissingDirectoryOff (off30): with the sandbox off, git run in a
// workspace directory that does not exist is allowed when nothing on the
// line can make that directory (gitmissingdir_off.go): the cd or -C fails
// and git never runs there. Rows from polcorp8/10/11 (`cd services/api &&
// git status`, `git -C packages/core status`, `(cd frontend && git log -p
// -1 -- src/app.ts)`), asked in the corpus's bare workspace. A line that
// may make the directory still asks, as does one that already looks like a
// git directory.
func TestGitInAMissingDirectoryOff(t *testing.T) {
	ctx := testEnv(t)
	bare := filepath.Join(ctx.Workspace, "evil")
	for _, d := range []string{"refs", "objects"} {
		if err := os.MkdirAll(filepath.Join(bare, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(bare, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkOnOffIn(t, ctx, []onOff{
		{"git -C packages/core status", Allow, Allow},
		{"cd services/api && git status", Allow, Allow},
		{"(cd services/api && git log --graph --oneline --decorate -15)", Allow, Allow},
		{"cd services/api && git log --oneline -20 2>&1 | tail -n 20", Allow, Allow},
		{"(cd frontend && git log -p -1 -- src/app.ts)", Allow, Allow},
		{"cd backend && git ls-files -m", Allow, Allow},
		{"cd services/api && git blame -L 10,30 src/app.ts", Allow, Allow},
		{"(cd packages/core && git diff --cached)", Allow, Allow},
		{"cd packages/core && git checkout -b feature/login-form", Allow, Allow},
		{"bash -lc 'git -C packages/core status'", Allow, Allow},
		{"timeout 60 git -C vendor/lib log -1 --format=%H", Allow, Allow},
		// Something on the line may make the directory first.
		{"mkdir -p newdir && git -C newdir log", Allow, Ask},
		{"git init --bare newdir && git -C newdir log -p", Allow, Ask},
		{"tar xf r.tar && cd newdir && git show", Allow, Ask},
		{"git checkout evil-branch && cd newdir && git log -p", Allow, Ask},
		{"for i in 1 2; do git -C newdir log -p; git checkout evil-branch; done", Allow, Ask},
		{"f() { mkdir newdir; }; f; git -C newdir status", Ask, Ask},
		{`bash -c "$MK"; git -C newdir status`, Ask, Ask},
		{"$MK newdir; git -C newdir status", Ask, Ask},
		{"npm run setup && cd newdir && git log -p", Allow, Ask},
		// An existing directory that looks like a git directory (unchanged).
		{"git -C evil log -p", Allow, Ask},
		{"cd evil && git status", Allow, Ask},
	})
}

// TestGitBranchDeleteInAMissingDirectoryStillAsksOff (off30): polcorp9's
// sandbox-only `git -C services/api branch -D feature/old-auth` keeps
// asking off though its directory is missing (branch is not among the
// sub-commands gitmissingdir_off.go lets through).
func TestGitBranchDeleteInAMissingDirectoryStillAsksOff(t *testing.T) {
	checkOnOffIn(t, testEnv(t), []onOff{
		{"git -C services/api branch -D feature/old-auth", Allow, Ask},
	})
}
