package policy

import "testing"

// ss lists sockets and is read-only, except its kill, dump and
// filter-file options (sscmd.go).
func TestPol8SsListsSockets(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	for _, c := range []struct {
		cmd  string
		want Decision
	}{
		{"ss -ltnp | grep 8080", Allow},
		{"ss -s", Allow},
		{"ss -tan state listening sport = :8080", Allow},
		{"ss", Allow},
		{"ss -K dst 1.2.3.4", Ask},
		{"ss -D /tmp/dump", Ask},
		{"ss -F /tmp/filter", Ask},
		{"ss --kill", Ask},
		{"ss -N other", Ask},
		{"ss -lt > /etc/x", Deny},
		{"ss $OPTS", Ask},
	} {
		v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: ctx})
		if v.Decision != c.want {
			t.Errorf("%q: %s by %s (%s), want %s", c.cmd, v.Decision, v.Rule, v.Reason, c.want)
		}
	}
}
