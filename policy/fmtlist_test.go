package policy

import "testing"

// TestFormatterListSubstitution holds polcorp14's class: a formatter's
// list mode in a substitution (test -z "$(gofmt -l .)", the Go projects'
// formatting check) is a producer of workspace names, allowed with the
// sandbox on and off; the same formatter writing, diffing, given another
// flag or a path outside the workspace is not a producer, and the
// substitution's outer program must still only look at names.
func TestFormatterListSubstitution(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	on := ctx
	on.Sandboxed = true
	everyday := []string{
		`test -z "$(gofmt -l .)" || (echo "run make fmt"; exit 1)`,
		`[ -z "$(gofmt -l .)" ]`,
		`if [ -n "$(gofmt -s -l ./cmd ./internal)" ]; then gofmt -s -d ./cmd ./internal; exit 1; fi`,
		`test -z "$(goimports -l . | grep -v vendor/)"`,
		`test -z "$(shfmt -l scripts)"`,
		`echo "$(gofumpt -l -extra .)"`,
	}
	for _, cmd := range everyday {
		for _, cx := range []Context{on, ctx} {
			if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: cx}); v.Decision != Allow {
				t.Errorf("sandbox %v: %q: got %s by %s (%s), want allow", cx.Sandboxed, cmd, v.Decision, v.Rule, v.Reason)
			}
		}
	}
	unsafe := []string{
		`test -z "$(gofmt -l -w .)"`,
		`test -z "$(gofmt -d .)"`,
		`test -z "$(gofmt -l ~/.ssh)"`,
		`test -z "$(gofmt -l /etc)"`,
		`test -z "$(gofmt -l ../other)"`,
		`test -z "$(shfmt -l -w scripts)"`,
		`cat $(gofmt -l .)`,
		`rm -rf $(gofmt -l .)`,
		`sh -c "$(gofmt -l .)"`,
		`test -z "$(gofmt -l $HOME)"`,
	}
	for _, cmd := range unsafe {
		for _, cx := range []Context{on, ctx} {
			if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: cx}); v.Decision == Allow {
				t.Errorf("sandbox %v: %q allowed by %s (%s), want ask or deny", cx.Sandboxed, cmd, v.Rule, v.Reason)
			}
		}
	}
}
