package policy

import "testing"

// TestBranchRefDeletions pins the off29 decision on the lead's question
// (handlers_git.go): `git update-ref -d` asks in the copy, sandbox on and
// off, and in place; `git branch -D` of another branch is allowed in the
// copy and asks in place for an unmerged branch.
func TestBranchRefDeletions(t *testing.T) {
	off := testEnv(t)
	on := off
	on.Sandboxed = true
	in := off
	in.InPlace = true
	e := Default()
	for _, c := range []struct {
		line        string
		on, off, in Decision
	}{
		{"git update-ref -d refs/heads/feature/x", Ask, Ask, Ask},
		{"git update-ref -d refs/heads/main", Ask, Ask, Ask},
		{"git update-ref -d refs/tags/v1", Ask, Ask, Ask},
		{"git update-ref -d HEAD", Ask, Ask, Ask},
		{"git branch -D feature/x", Allow, Allow, Ask},
	} {
		for _, m := range []struct {
			cx   Context
			want Decision
		}{{on, c.on}, {off, c.off}, {in, c.in}} {
			if v := e.Check(Query{Kind: KindShell, Command: c.line, Context: m.cx}); v.Decision != m.want {
				t.Errorf("sandbox %v in place %v: %q: %s by %s (%s), want %s", m.cx.Sandboxed, m.cx.InPlace, c.line, v.Decision, v.Rule, v.Reason, m.want)
			}
		}
	}
}
