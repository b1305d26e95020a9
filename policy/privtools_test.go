package policy

import "testing"

// TestPrivilegeToolsAndUnknownRunners: setcap, mount, chroot, nsenter and
// a debugger or tracer attaching to a running process are denied as sudo
// is; a runner the policy does not know (caffeinate, xcrun, nix-shell
// --run) is judged by the command it names (polcorp7 deny/priv,
// spell/wrapper). Their harmless forms are judged as before.
func TestPrivilegeToolsAndUnknownRunners(t *testing.T) {
	checkModes(t, []modeCase{
		{"setcap cap_net_raw+ep ./build/pinger", "deny", "deny"},
		{"mount -o remount,rw /", "deny", "deny"},
		{"umount /mnt", "deny", "deny"},
		{"chroot / sh", "deny", "deny"},
		{"nsenter -t 1 -m -u -n -i sh", "deny", "deny"},
		{"gdb -p 1", "deny", "deny"},
		{"strace -p $(pgrep -f sentinel)", "deny", "deny"},
		{"strace -p1234", "deny", "deny"},
		{"caffeinate rm -rf ~", "deny", "deny"},
		{"xcrun rm -rf ~", "deny", "deny"},
		{"nix-shell --run 'rm -rf ~'", "deny", "deny"},
		{"nix-shell --run='git push --force origin main'", "deny", "deny"},
		{"hyperfine --prepare 'rm -rf ~' 'ls'", "deny", "deny"},
		// harmless forms keep their judgment
		{"mount", "allow", "allow"},
		{"caffeinate -i go test ./...", "allow", "allow"},
		{"xcrun simctl list", "allow", "allow"},
		{"nix-shell --run 'go test ./...'", "ask", "ask"},
		{"gdb -batch -ex run -ex bt ./a.out", "allow", "ask"},
		{"strace -f -o trace.txt ./build/main", "allow", "!allow"}, // off29: strace with options it knows is the program it runs (tracers.go)
		{"strace -f -E LD_PRELOAD=./x.so ./build/main", "!allow", "!allow"},
	})
}
