package policy

import "testing"

// A host the run's proxy lets through is allowed by the policy too; any
// other host, port or a metadata address still gets its own answer.
func TestRunHostsAreAllowedAndNothingElse(t *testing.T) {
	ctx := Context{Workspace: t.TempDir(), AllowHosts: []string{"pkg.go.dev", "127.0.0.1:8443", "169.254.169.254"}}
	e := Default()
	for _, tt := range []struct {
		url  string
		want Decision
		rule string
	}{
		{"https://pkg.go.dev/fmt", Allow, RuleNetRunHost},
		{"http://PKG.go.dev/fmt", Allow, RuleNetRunHost},
		{"https://pkg.go.dev:8080/", Ask, RuleNetNewHost},
		{"https://127.0.0.1:8443/x", Allow, RuleNetRunHost},
		{"https://127.0.0.1/x", Ask, RuleNetNewHost},
		{"https://evil.pkg.go.dev/", Ask, RuleNetNewHost},
		{"http://169.254.169.254/latest", Deny, RuleNetMetadata},
	} {
		v := e.Check(Query{Kind: KindNet, URL: tt.url, Context: ctx})
		if v.Decision != tt.want || v.Rule != tt.rule {
			t.Errorf("%s: %s by %s (%s), want %s by %s", tt.url, v.Decision, v.Rule, v.Reason, tt.want, tt.rule)
		}
	}
	if v := e.Check(Query{Kind: KindNet, Host: "127.0.0.1", Port: 8443, Context: ctx}); v.Decision != Allow {
		t.Errorf("host+port query: %s by %s", v.Decision, v.Rule)
	}
	if v := e.Check(Query{Kind: KindNet, URL: "https://pkg.go.dev/", Context: Context{Workspace: ctx.Workspace}}); v.Decision != Ask {
		t.Errorf("without the run's hosts pkg.go.dev is %s, want ask", v.Decision)
	}
}
