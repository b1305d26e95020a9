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

// TestANetworkClientsNumberIsNoHost holds the class of false denies
// polcorp7 found (ping -c 3 8.8.8.8, ssh -p 2222 host, redis-cli -p 6379,
// psql -p 5432, mysql -P 3306, dig -p 53): the value of a port, count or
// timeout option was read as a host written in decimal and denied as an
// obfuscated address, and a deny is final. They ask as any network client
// does; a host really written in an unusual form is still denied.
func TestANetworkClientsNumberIsNoHost(t *testing.T) {
	ctx := testEnv(t)
	on, off := ctx, ctx
	on.Sandboxed = true
	e := Default()
	for _, c := range []struct {
		cmd  string
		want Decision
	}{
		{"ping -c 3 8.8.8.8", Ask},
		{"ssh -p 2222 git@example.com", Ask},
		// another host: the loopback forms are allowed in the sandbox (localdb.go)
		{"redis-cli -p 6379 -h cache.example.com info server", Ask},
		{"psql -p 5432 -h db.example.com -c 'select 1'", Ask},
		{"mysql -P 3306 -h db.example.com -e 'show tables'", Ask},
		{"dig -p 53 example.com", Ask},
		{"traceroute -m 10 example.com", Ask},
		{"nmap -p 80 example.com", Ask},
		{"ping -c 1 2130706433", Deny},
		{"ssh -p 22 0x7f000001", Deny},
		{"psql -h 0177.0.0.1 -p 5432", Deny},
		{"ping 2130706433", Deny},
	} {
		for _, cx := range []Context{on, off} {
			if v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: cx}); v.Decision != c.want {
				t.Errorf("sandbox %v: %q is %s by %s (%s), want %s", cx.Sandboxed, c.cmd, v.Decision, v.Rule, v.Reason, c.want)
			}
		}
	}
}
