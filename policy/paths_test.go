package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// Symlinks inside the workspace are followed the way the kernel follows
// them, so a link cannot smuggle a read or write outside.
func TestSymlinksAreResolved(t *testing.T) {
	ctx := testEnv(t)
	ws, home := ctx.Workspace, ctx.Home
	for link, target := range map[string]string{
		"keys":     filepath.Join(home, ".ssh"),
		"homelink": home,
		"etc":      "/etc",
		"inside":   filepath.Join(ws, "src"),
		"hooks":    filepath.Join(ws, ".git", "hooks"),
		"loop":     filepath.Join(ws, "loop"),
		"src/up":   "..",
		"src/deep": "../../../..",
	} {
		if err := os.Symlink(target, filepath.Join(ws, link)); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		cmd  string
		want Decision
		rule string
	}{
		{"cat keys/id_rsa", Deny, RulePathCredential},
		{"echo x > homelink/.bashrc", Deny, RulePathWriteOutside},
		{"cat homelink/../ws/README.md", Allow, RuleReadOnly},
		{"cat etc/hostname", Ask, RulePathReadOutside},
		{"echo x > etc/x", Deny, RulePathWriteOutside},
		{"cat inside/a.go", Allow, RuleReadOnly},
		{"cp x hooks/pre-commit", Deny, RulePathWriteProtect},
		{"cat keys/../.bashrc", Ask, RulePathReadOutside}, // lexical cleaning would say ws/.bashrc
		{"cat loop/x", Ask, RulePathUnknown},
		{"cd src/deep && cat x", Ask, RulePathReadOutside},
		{"cat src/up/README.md", Allow, RuleReadOnly},
	}
	e := Default()
	for _, c := range cases {
		v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: ctx})
		if v.Decision != c.want || (c.rule != "" && v.Rule != c.rule) {
			t.Errorf("%q: got %s by %s (%s), want %s by %s", c.cmd, v.Decision, v.Rule, v.Reason, c.want, c.rule)
		}
	}
}

func TestStructuredPathQueries(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	cases := []struct {
		kind Kind
		path string
		want Decision
		rule string
	}{
		{KindWrite, "src/new.go", Allow, RulePathWriteWS},
		{KindEdit, filepath.Join(ctx.Workspace, "main.go"), Allow, RulePathWriteWS},
		{KindWrite, "../escape.go", Deny, RulePathWriteOutside},
		{KindWrite, "~/.bashrc", Deny, RulePathWriteOutside},
		{KindWrite, ".git/hooks/pre-commit", Deny, RulePathWriteProtect},
		{KindWrite, ".sentinel/templates.toml", Deny, RulePathWriteProtect},
		{KindEdit, ".claude/settings.json", Ask, RulePathWriteLater},
		{KindWrite, ".mcp.json", Ask, RulePathWriteLater},
		{KindRead, "README.md", Allow, RulePathReadWS},
		{KindRead, "~/.ssh/id_rsa", Deny, RulePathCredential},
		{KindRead, "/etc/shadow", Deny, RulePathCredential},
		{KindRead, "/etc/hostname", Ask, RulePathReadOutside},
		{KindRead, ".env", Ask, RulePathReadSecret},
		{KindRead, "", Ask, RuleQueryBad},
		{KindWrite, "/dev/null", Allow, RulePathWriteWS},
	}
	for _, c := range cases {
		v := e.Check(Query{Kind: c.kind, Path: c.path, Context: ctx})
		if v.Decision != c.want || v.Rule != c.rule {
			t.Errorf("%s %q: got %s by %s (%s), want %s by %s", c.kind, c.path, v.Decision, v.Rule, v.Reason, c.want, c.rule)
		}
	}
	// Extra writable roots (the sandbox's private temp dir) count as inside.
	tmp := t.TempDir()
	ctx.Writable = []string{tmp}
	if v := e.Check(Query{Kind: KindWrite, Path: filepath.Join(tmp, "x"), Context: ctx}); v.Decision != Allow {
		t.Errorf("write to a writable root: %s (%s)", v.Decision, v.Reason)
	}
}

func TestHosts(t *testing.T) {
	e := Default()
	cases := []struct {
		q    Query
		want Decision
		rule string
	}{
		{Query{Kind: KindNet, URL: "https://example.com/x"}, Ask, RuleNetNewHost},
		{Query{Kind: KindNet, Host: "169.254.169.254", Port: 80}, Deny, RuleNetMetadata},
		{Query{Kind: KindNet, URL: "http://[fd00:ec2::254]/"}, Deny, RuleNetMetadata},
		{Query{Kind: KindNet, Host: "metadata.google.internal"}, Deny, RuleNetMetadata},
		{Query{Kind: KindNet, Host: "0xa9fea9fe"}, Deny, RuleNetObfuscated},
		{Query{Kind: KindNet, Host: "2852039166"}, Deny, RuleNetObfuscated},
		{Query{Kind: KindNet, Host: "0251.0376.0251.0376"}, Deny, RuleNetObfuscated},
		{Query{Kind: KindNet, Host: "EXAMPLE.com."}, Ask, RuleNetNewHost},
		{Query{Kind: KindNet, URL: "http://[::1"}, Ask, RuleNetBadURL},
		{Query{Kind: KindNet, Host: "exa mple.com"}, Ask, RuleNetBadURL},
		{Query{Kind: KindNet}, Ask, RuleNetBadURL},
	}
	for _, c := range cases {
		v := e.Check(c.q)
		if v.Decision != c.want || v.Rule != c.rule {
			t.Errorf("%+v: got %s by %s (%s), want %s by %s", c.q, v.Decision, v.Rule, v.Reason, c.want, c.rule)
		}
	}
	wild := []struct {
		pattern, host string
		port          int
		want          bool
	}{
		{"*.example.com", "api.example.com", 443, true},
		{"*.example.com", "example.com", 443, false},
		{"*.example.com", "evilexample.com", 443, false},
		{"example.com:443", "example.com", 443, true},
		{"example.com:443", "example.com", 80, false},
		{"*.internal", "db.internal", 0, false},
		{"*.amazonaws.com", "169.254.169.254", 0, false},
		{"10.0.0.1", "10.0.0.1", 0, true},
		{"*.1", "10.0.0.1", 0, false},
	}
	for _, w := range wild {
		if got := hostMatches(w.pattern, w.host, w.port); got != w.want {
			t.Errorf("hostMatches(%q, %q, %d) = %v, want %v", w.pattern, w.host, w.port, got, w.want)
		}
	}
}

// Parts are what the approvals engineer matches templates against.
func TestPartsDescribeEverySimpleCommand(t *testing.T) {
	ctx := testEnv(t)
	v := Default().Check(Query{Kind: KindShell, Context: ctx,
		Command: `timeout 5 env CI=1 make test && echo $(git rev-parse HEAD) > out.txt; sh -c 'ls src' | wc -l`})
	type want struct {
		argv     string
		wrappers string
		via      string
		dynamic  bool
	}
	got := []want{}
	for _, p := range v.Parts {
		got = append(got, want{join(p.Argv), join(p.Wrappers), p.Via, p.Dynamic})
	}
	exp := []want{
		{"make test", "timeout 5 env CI=1", "", false},
		{"git rev-parse HEAD", "", "", false},
		{"", "", "", true}, // echo $(…): not static, so no Argv
		{"sh -c ls src", "", "", false},
		{"ls src", "", "sh -c", false},
		{"wc -l", "", "", false},
	}
	if len(got) != len(exp) {
		t.Fatalf("parts = %+v, want %+v", got, exp)
	}
	for i := range exp {
		if got[i] != exp[i] {
			t.Errorf("part %d = %+v, want %+v", i, got[i], exp[i])
		}
	}
	// echo of a read-only producer's output (subst.go) is allowed.
	if v.Decision != Allow || v.Parts[2].Redirects[0] != filepath.Join(ctx.Workspace, "out.txt") {
		t.Errorf("verdict %s, redirects %v", v.Decision, v.Parts[2].Redirects)
	}
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}
