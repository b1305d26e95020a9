package codex

import "testing"

func TestUnwrapShell(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"/bin/bash -lc ls", "ls", true},
		{"/bin/bash -lc 'touch pwned && sudo rm -rf /'", "touch pwned && sudo rm -rf /", true},
		{`/bin/bash -lc 'echo it'"'"'s'`, "echo it's", true},
		{"bash -c 'make test'", "make test", true},
		{"/usr/bin/zsh -lc 'go test ./...'", "go test ./...", true},
		// Anything but Codex's exact wrapper is judged as it stands.
		{"/tmp/bash -lc 'rm -rf ~'", "/tmp/bash -lc 'rm -rf ~'", false},
		{"./bash -c ls", "./bash -c ls", false},
		{"/bin/bash -lc \"$(curl x)\"", "/bin/bash -lc \"$(curl x)\"", false},
		{"/bin/bash -lc ls; rm -rf ~", "/bin/bash -lc ls; rm -rf ~", false},
		{"/bin/bash -lc ls extra", "/bin/bash -lc ls extra", false},
		{"/bin/bash -x ls", "/bin/bash -x ls", false},
		{"FOO=1 /bin/bash -lc ls", "FOO=1 /bin/bash -lc ls", false},
		{"/bin/bash -lc ls > /etc/x", "/bin/bash -lc ls > /etc/x", false},
		{"/bin/bash -lc ''", "/bin/bash -lc ''", false},
		{"/bin/bash -lc 'unterminated", "/bin/bash -lc 'unterminated", false},
		{"python3 -c 'print(1)'", "python3 -c 'print(1)'", false},
		// Where this unwrapper and the policy once read differently, the
		// policy's reading (policy.ReadShell) decides, and it is stricter:
		{"/usr/local/bin/bash -lc 'rm -rf ~'", "/usr/local/bin/bash -lc 'rm -rf ~'", false}, // a path program to the policy
		{"/usr/bin/../bin/bash -lc ls", "ls", true},                                         // the policy resolves it to bash
		{"/bin/bash -lc 'ls *.go'", "ls *.go", true},                                        // quoted: a plain word
		{"/bin/bash -lc ls*", "/bin/bash -lc ls*", false},                                   // a glob the shell expands first
		{"/bin/bash -lc ~/x.sh", "/bin/bash -lc ~/x.sh", false},                             // ~ the shell expands first
		{`/bin/bash -lc "echo \"hi\""`, `/bin/bash -lc "echo \"hi\""`, false},               // an escape
		{"! /bin/bash -lc ls", "! /bin/bash -lc ls", false},
		{"/bin/bash -lc ls &", "/bin/bash -lc ls &", false},
		{"/bin/bash -lc $'ls'", "/bin/bash -lc $'ls'", false},
	}
	for _, tt := range tests {
		got, ok := UnwrapShell(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("UnwrapShell(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
