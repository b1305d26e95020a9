package policy

import "testing"

// Ruby one-liners are judged as python -c is; Ruby's own ways to run a
// program or load code ask.
func TestRubyInline(t *testing.T) {
	ctx := testEnv(t)
	ctx.Sandboxed = true
	e := Default()
	for cmd, want := range map[string]Decision{
		"ruby -e 'puts RUBY_VERSION'":                        Allow,
		`ruby -rjson -e 'p JSON.parse(File.read("x.json"))'`: Allow,
		`ruby -e 'open("|rm -rf ~")'`:                        Ask,
		"ruby -e '%x(id)'":                                   Ask,
		"ruby -e 'Kernel.send(:sys' + 'tem, 1)'":             Ask,
		"ruby -e '`id`'":                                     Ask,
		"ruby -r./evil -e 1":                                 Ask,
		"ruby -e 'require \"./evil\"'":                       Ask,
		"ruby -e 'puts ENV.to_h'":                            Ask,
		"ruby -e 'IO.popen(\"id\")'":                         Ask,
	} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: ctx}); v.Decision != want {
			t.Errorf("%q: %s by %s (%s), want %s", cmd, v.Decision, v.Rule, v.Reason, want)
		}
	}
	ctx.Sandboxed = false
	// pol23: with the sandbox off only code that computes and loads nothing
	// is allowed (offinline.go); loading a file asks.
	if v := e.Check(Query{Kind: KindShell, Command: "ruby -e 'puts RUBY_VERSION'", Context: ctx}); v.Decision != Allow {
		t.Errorf("ruby -e 'puts RUBY_VERSION' with the sandbox off: %s, want allow", v.Decision)
	}
	if v := e.Check(Query{Kind: KindShell, Command: "ruby -e 'load \"x.rb\"'", Context: ctx}); v.Decision != Ask {
		t.Errorf("ruby -e 'load' with the sandbox off: %s, want ask", v.Decision)
	}
}

// chown and chgrp outside the workspace are denied, inside they ask.
func TestOwnershipOutsideTheWorkspace(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	for cmd, want := range map[string]Decision{"chown -R nobody ~": Deny, "chgrp -R staff /etc": Deny, "chown -R me src": Ask} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: ctx}); v.Decision != want {
			t.Errorf("%q: %s by %s, want %s", cmd, v.Decision, v.Rule, want)
		}
	}
}
