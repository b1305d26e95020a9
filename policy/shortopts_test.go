package policy

import "testing"

// A bundle of short options is the options one by one: `sort -uo FILE`
// writes FILE (github.com/kirodotdev/KiroCrew/pull/5038: bundled
// `sort -uo FILE`), `cp -vt/etc x` copies into /etc.
func TestShortOptionBundlesAreJudgedAsTheOptions(t *testing.T) {
	checkClass(t, []classCase{
		{`sort -uo /etc/x a`, "deny"},
		{`sort -uo/etc/x a`, "deny"},
		{`sort -ruo .git/hooks/pre-commit a`, "deny"},
		{`cp -vt/etc x`, "deny"},
		{`mv -ft/etc x`, "deny"},
		{`tar -xvf a.tar -C/etc`, "deny"},
		// everyday bundles are unchanged in meaning
		{`sort -u a`, "allow"},
		{`sort -k2,2 -n a`, "allow"},
		{`ls -la`, "allow"},
		{`grep -rn foo src`, "allow"},
		{`tar -xzf a.tar`, "allow"},
		{`cp -av src build`, "allow"},
		{`du -sh src`, "allow"},
		{`head -n5 a`, "allow"},
	})
}

func TestShortBundleSplit(t *testing.T) {
	tb := shortOpts.get()["sort"]
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"-uo", []string{"-u", "-o"}},
		{"-uo/etc/x", []string{"-u", "-o", "/etc/x"}},
		{"-k2,2", []string{"-k", "2,2"}},
	} {
		got, ok := tb.split(word{val: c.in, static: true})
		if !ok || len(got) != len(c.want) {
			t.Errorf("%s: got %v %v, want %v", c.in, vals(got), ok, c.want)
			continue
		}
		for i := range got {
			if got[i].val != c.want[i] {
				t.Errorf("%s: got %v, want %v", c.in, vals(got), c.want)
			}
		}
	}
	if _, ok := tb.split(word{val: "-u%", static: true}); ok {
		t.Error("a letter the table does not know must leave the bundle alone")
	}
}
