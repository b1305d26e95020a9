package policy

import "testing"

// Issue 32: GNU getopt_long, tar's argp and git's parse-options take any
// unique prefix of a long option; handlers compared names exactly, so
// `git push --force-w` was "talks to a remote" and `sort --compress-p=sh`
// was read-only.
func TestLongOptionAbbreviationsAreJudgedAsTheOption(t *testing.T) {
	checkClass(t, []classCase{
		{`git push --force-w origin main`, "deny"},
		{`git push --force-with origin main`, "deny"},
		{`git push --mirr origin`, "deny"},
		{`git push --delet origin main`, "deny"},
		{`git -C . push --force-wi origin main`, "deny"},
		{`git push --exe=/tmp/x origin`, "deny"},
		{`sort --compress-p=/bin/sh a`, "deny"},
		{`sort --outp=/etc/x a`, "deny"},
		{`rm -rf --no-pres /`, "deny"},
		{`tar --to-c=sh -xf a.tar`, "deny"},
		{`tar --use-compress-p=sh -xf a.tar`, "deny"},
		{`make --fil=/dev/stdin`, "ask"},
		// several options start so: the program refuses it; the policy
		// asks, and denies when every one of them is denied (ambiguousopts.go)
		{`git push --fo origin main`, "ask"},
		{`git push --forc origin main`, "deny"},
		// everyday spellings are unchanged
		{`git status --short`, "allow"},
		{`git diff --stat`, "allow"},
		{`sort -u a`, "allow"},
		{`ls --col`, "allow"},
		{`git push origin HEAD`, "ask"},
	})
}

func TestLongOptionTable(t *testing.T) {
	tb := longOpts.get()
	for _, key := range []string{"sort", "wc", "rm", "tar", "make", "sed", "git push", "git commit", "git config"} {
		if len(tb[key]) == 0 {
			t.Errorf("longopts.txt has no options for %q", key)
		}
	}
	for _, c := range []struct{ name, want string }{
		{"force-w", "force-with-lease"}, {"force", "force"}, {"mirr", "mirror"}, {"delet", "delete"},
	} {
		if got, n := resolveLongOpt(tb["git push"], c.name); n != 1 || got != c.want {
			t.Errorf("git push --%s = --%s (%d), want --%s", c.name, got, n, c.want)
		}
	}
	if _, n := resolveLongOpt(tb["git push"], "forc"); n < 2 {
		t.Error("git push --forc must be ambiguous")
	}
	if _, n := resolveLongOpt(tb["sort"], "frobnicate"); n != 0 {
		t.Error("an unknown option must resolve to nothing")
	}
}
