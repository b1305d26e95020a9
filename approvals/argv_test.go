package approvals

import (
	"testing"

	"github.com/sentinelhq/sentinel/policy"
)

// TestShellCommand: an argv `<shell> -c SCRIPT` is judged as SCRIPT only
// where the policy's reader finds that script; a program named bash in the
// workspace or /tmp once had its -c argument judged in its place.
func TestShellCommand(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want string
	}{
		{[]string{"bash", "-lc", "ls -la"}, "ls -la"},
		{[]string{"/bin/bash", "-lc", "ls -la"}, "ls -la"},
		{[]string{"/usr/bin/sh", "-c", "make"}, "make"},
		{[]string{"./bash", "-c", "ls"}, "./bash -c ls"},
		{[]string{"/tmp/x/bash", "-lc", "ls"}, "/tmp/x/bash -lc ls"},
		{[]string{"sub/sh", "-c", "ls"}, "sub/sh -c ls"},
		{[]string{"bash", "-lc", "ls", "extra"}, "bash -lc ls extra"},
		{[]string{"git", "commit", "-m", "a b"}, "git commit -m 'a b'"},
	} {
		if got := ShellCommand(tc.argv); got != tc.want {
			t.Errorf("ShellCommand(%q) = %q, want %q", tc.argv, got, tc.want)
		}
	}
}

// A request over the socket that gives its command as words is judged and
// journaled as the broker reads them, whatever Command the client claims,
// and keeps no Argv.
func TestBrokerJudgesArgvAsItReadsIt(t *testing.T) {
	r := startBroker(t, BrokerConfig{Decider: allowAll("person")})
	for _, tc := range []struct {
		claimed string
		argv    []string
		want    string
	}{
		{"bash -lc 'ls -la'", []string{"bash", "-lc", "ls -la"}, "ls -la"},
		{"ls", []string{"/tmp/x/bash", "-lc", "rm -rf ~"}, "/tmp/x/bash -lc 'rm -rf ~'"},
	} {
		d := ask(t, r.socket, Request{Kind: policy.KindShell, Command: tc.claimed, Argv: tc.argv})
		var got *Request
		for _, ev := range r.events(t) {
			if re, ok := AsRequest(ev); ok && re.ID == d.RequestID {
				got = &re.Request
			}
		}
		if got == nil || got.Command != tc.want || got.Argv != nil {
			t.Errorf("argv %q (claimed %q) journaled as %+v, want command %q and no argv", tc.argv, tc.claimed, got, tc.want)
		}
	}
}
