package policy

import "testing"

// TestPytestIniOverridesAreJudgedAsWhatTheySet holds the class polcorp7
// found allowed (P7-U5): pytest's -o/--override-ini sets ini options, and
// addopts is a second command line pytest parses first, so
// `pytest -o addopts='--basetemp=/'` clears / exactly as `pytest
// --basetemp=/` does, which is denied; cache_dir and log_file name places
// pytest writes. The everyday forms stay allowed.
func TestPytestIniOverridesAreJudgedAsWhatTheySet(t *testing.T) {
	ctx := testEnv(t)
	on, off := ctx, ctx
	on.Sandboxed = true
	e := Default()
	for _, c := range []struct {
		cmd  string
		want Decision
	}{
		{"pytest -p no:cacheprovider --import-mode=importlib -o addopts='--basetemp=/'", Deny},
		{"pytest -o addopts='--basetemp=/'", Deny},
		{"pytest -oaddopts=--basetemp=/", Deny},
		{"pytest --override-ini=addopts=--basetemp=/home", Deny},
		{"pytest -o 'addopts=--basetemp /'", Deny},
		{"python -m pytest -o addopts='--basetemp=/'", Deny},
		{"uv run pytest -o addopts='--basetemp=/'", Deny},
		{"pytest -o cache_dir=/etc/x --cache-clear", Deny},
		{"pytest -o log_file=/etc/pytest.log", Deny},
		{`pytest -o addopts="--basetemp=$HOME"`, Ask},
		{"pytest -o addopts='-x -q'", Allow},
		{"pytest -o addopts= -q", Allow},
		{"pytest -o cache_dir=.cache/pytest -q", Allow},
		{"pytest -o xfail_strict=true tests/", Allow},
	} {
		for _, cx := range []Context{on, off} {
			v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: cx})
			if v.Decision != c.want && !(c.want == Ask && v.Decision == Deny) {
				t.Errorf("sandbox %v: %q is %s by %s (%s), want %s", cx.Sandboxed, c.cmd, v.Decision, v.Rule, v.Reason, c.want)
			}
		}
	}
}
