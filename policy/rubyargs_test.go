package policy

import "testing"

// TestRubyOptionsEndAtTheScript: ruby's options end at its script, and a
// bundle's value-taking letter ends the bundle: `-Ilib:test x.rb -n name`
// holds no -e, while -e before the script still runs inline code.
func TestRubyOptionsEndAtTheScript(t *testing.T) {
	ctx := testEnv(t)
	ctx.Sandboxed = true
	e := Default()
	for _, l := range []string{"bundle exec ruby -Ilib:test test/test_file.rb -n test_method_name", "ruby -I lib test/a_test.rb -e x",
		"ruby -E utf-8 test/a_test.rb", "ruby -w test/a_test.rb --name=test_x"} {
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: ctx}); v.Decision != Allow {
			t.Errorf("%q: %s by %s (%s), want allow", l, v.Decision, v.Rule, v.Reason)
		}
	}
	for _, l := range []string{"ruby -I lib -e 'system(\"id\")'", "ruby -Ilib -e 'system(\"id\")'", "ruby -wle 'system(\"id\")'",
		"ruby -r lib -e 'system(\"id\")' x.rb", "ruby -C /tmp -e 'system(\"id\")'"} {
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: ctx}); v.Decision == Allow {
			t.Errorf("%q ALLOWED by %s (%s)", l, v.Rule, v.Reason)
		}
	}
}
