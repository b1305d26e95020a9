package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// A rule for a program covers it however its path is written; an allow
// rule covers only the system program of that name.
func TestUserRulesJudgeTheResolvedProgram(t *testing.T) {
	ctx := testEnv(t)
	p := writeRules(t, `
[[rule]]
id = "no-nc"
decision = "deny"
argv = ["nc"]

[[rule]]
id = "ok-frob"
decision = "allow"
argv = ["frob"]
`)
	e, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cmd  string
		want Decision
		rule string
	}{
		{"nc example.com 80", Deny, "no-nc"},
		{"/usr/bin/nc example.com 80", Deny, "no-nc"},
		{"/bin/nc example.com 80", Deny, "no-nc"},
		{"/usr/bin/../bin/nc example.com 80", Deny, "no-nc"},
		{"timeout 5 /usr/bin/nc example.com 80", Deny, "no-nc"},
		{"env /usr/bin/nc example.com 80", Deny, "no-nc"},
		{"./nc example.com 80", Deny, "no-nc"},
		{"frob", Allow, "ok-frob"},
		{"/usr/bin/frob", Allow, "ok-frob"},
		{"./frob", Ask, RulePathProgram},
	} {
		v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: ctx})
		if v.Decision != c.want || v.Rule != c.rule {
			t.Errorf("%q: got %s by %s (%s), want %s by %s", c.cmd, v.Decision, v.Rule, v.Reason, c.want, c.rule)
		}
	}
}

// Reading a secret file is person-only however the line spells the read.
func TestSecretReadsArePersonOnly(t *testing.T) {
	ctx := testEnv(t)
	ws := ctx.Workspace
	if err := os.MkdirAll(filepath.Join(ws, "svc"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{".env.local", "svc/.env", "server.pem"} {
		if err := os.WriteFile(filepath.Join(ws, f), []byte("k\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	e := Default()
	for _, cmd := range []string{
		"cat .env", "cat .env*", "cat .[e]nv", "cat .e?v", "cat */.env", "grep -h KEY .env*",
		"ln -s .env x && cat x", "ln .env x", "mv .env notes.txt", "git show HEAD:.env", "git show :.env",
		"git cat-file -p HEAD:svc/.env", "git log -p -- .env", "git grep KEY -- '.env*'", "cat *.pem",
		"cat *", "head -c 100 s*/.e*", "cat .ENV", "cat SERVER.PEM", "cat svc/.Env",
	} {
		v := e.Check(Query{Kind: KindShell, Command: cmd, Context: ctx})
		if v.Decision == Allow || !v.NeverDelegable {
			t.Errorf("%q: got %s by %s (%s), never-delegable %v: want a person-only ask", cmd, v.Decision, v.Rule, v.Reason, v.NeverDelegable)
		}
	}
	if v := e.Check(Query{Kind: KindRead, Path: ".env", Context: ctx}); !v.NeverDelegable {
		t.Errorf("read .env: not person-only (%s)", v.Reason)
	}
	for _, cmd := range []string{"cat src/*", "wc -l *.go", "git show HEAD:src/a.go", "git show :/fix", "git diff main -- src/"} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: ctx}); v.Decision != Allow {
			t.Errorf("%q: got %s by %s (%s), want allow", cmd, v.Decision, v.Rule, v.Reason)
		}
	}
}

// A link the workspace already holds is followed through a glob too.
func TestGlobReadsFollowLinks(t *testing.T) {
	ctx := testEnv(t)
	if err := os.Symlink(filepath.Join(ctx.Home, ".ssh", "id_rsa"), filepath.Join(ctx.Workspace, "src", "k")); err != nil {
		t.Fatal(err)
	}
	v := Default().Check(Query{Kind: KindShell, Command: "cat src/*", Context: ctx})
	if v.Decision != Deny || v.Rule != RulePathCredential {
		t.Errorf("cat src/* with src/k a link to a key: got %s by %s (%s), want deny by %s", v.Decision, v.Rule, v.Reason, RulePathCredential)
	}
}

// Protected names are protected in any case and with invisible characters,
// as macOS and Windows filesystems see them.
func TestProtectedNamesFoldCase(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	for _, c := range []struct {
		path string
		want Decision
	}{
		{".GIT/config", Deny}, {".Git/hooks/pre-commit", Deny}, {".git\u200b/config", Deny}, {"GIT~1/config", Deny},
		{".git./config", Deny}, {".SENTINEL/policy.toml", Deny}, {".Sentinel/templates.toml", Deny},
		{".CLAUDE/settings.json", Ask}, {".ENVRC", Ask}, {".VSCode/tasks.json", Ask}, {"CLAUDE.md", Allow},
		{".GitHub/workflows/ci.yml", Ask}, {".\u212Aube/x", Allow}, {"src/Git.go", Allow},
	} {
		v := e.Check(Query{Kind: KindWrite, Path: c.path, Context: ctx})
		if v.Decision != c.want {
			t.Errorf("write %q: got %s by %s (%s), want %s", c.path, v.Decision, v.Rule, v.Reason, c.want)
		}
	}
	if v := e.Check(Query{Kind: KindShell, Command: "mkdir -p .Git/hooks && echo x > .Git/hooks/pre-commit", Context: ctx}); v.Decision != Deny {
		t.Errorf("hook by case: got %s by %s (%s)", v.Decision, v.Rule, v.Reason)
	}
}

// A pattern the policy cannot check file by file asks rather than passing:
// a link to a secret may hide among the files it did not look at.
func TestGlobTooBroadToCheckAsks(t *testing.T) {
	ctx := testEnv(t)
	dir := filepath.Join(ctx.Workspace, "many")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 0; i <= maxGlobMatches; i++ {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%05d", i)), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, line := range []string{"cat many/*", "cat */*/*/*/*/*/k"} {
		if v := Default().Check(Query{Kind: KindShell, Command: line, Context: ctx}); v.Decision == Allow {
			t.Errorf("%s: allowed by %s (%s); a pattern too broad to check must ask", line, v.Rule, v.Reason)
		}
	}
}
