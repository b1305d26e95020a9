package policy

import (
	"net"
	"os"
	"path/filepath"
	"strings"
)

// Escapes from the sandbox and from the person's control (issue 32,
// polcorp8 escape; SECURITY.md layers 1 and 3), denied as sudo is, however
// the program is reached:
//   - the container runtime's socket (docker.sock, podman.sock,
//     containerd.sock…) named to any program other than a listing (curl
//     --unix-socket, socat UNIX-CONNECT:, nc -U, python -c 'socket…'):
//     whoever talks to it starts a root container with / mounted;
//   - a new user namespace (unshare -r, unshare -Ur, --map-root-user),
//     nsenter, chroot and pivot_root: root inside, the kernel's surface
//     and the host's namespaces outside;
//   - ssh, scp, sftp or mosh to this machine (localhost, 127.0.0.0/8, ::1,
//     its host name): a shell on the host, outside the sandbox and policy;
//   - typing into the person's terminal (tmux send-keys, screen -X stuff,
//     xdotool type|key, ydotool, wtype): it can answer Sentinel's own
//     approval cards, which take answers only from the person's keyboard;
//   - finding or signalling Sentinel itself (kill $(pgrep -f sentinel),
//     pidof sentinel, kill -STOP): it supervises the coder.

// containerSockets are the file names of container runtimes' API sockets.
var containerSockets = []string{"docker.sock", "podman.sock", "containerd.sock", "crio.sock", "buildkitd.sock", "dockershim.sock", "cri-dockerd.sock"}

// socketListers only look at a socket's entry, never connect to it.
var socketListers = wordSet{words: []string{"ls", "stat", "test", "[", "file", "docker", "podman", "nerdctl"}}

// judgeEscapes denies the escapes above.
func (x *cmdCtx) judgeEscapes(args []word) {
	prog := filepath.Base(args[0].val)
	if !socketListers.has(prog) {
		for _, w := range args[1:] {
			for _, s := range containerSockets {
				if strings.Contains(w.val, s) {
					x.add(Deny, RuleWrapperPriv, prog+" talks to the container runtime's socket ("+s+"), which starts root containers on the host")
					return
				}
			}
		}
	}
	switch prog {
	case "unshare":
		if unshareUserNS(args[1:]) {
			x.add(Deny, RuleWrapperPriv, "unshare makes a user namespace in which the coder is root")
		}
	case "nsenter", "chroot", "pivot_root", "switch_root":
		x.add(Deny, RuleWrapperPriv, prog+" enters or changes namespaces or the root directory, which the coder may never do")
	case "ssh", "scp", "sftp", "mosh", "autossh", "slogin":
		if h, ok := sshLoopback(args[1:], prog == "scp" || prog == "sftp"); ok {
			x.add(Deny, RuleWrapperPriv, prog+" to "+h+" is a shell on this machine, outside the sandbox and the policy")
		}
	case "tmux":
		for _, w := range args[1:] {
			if strings.HasPrefix(w.val, "send") || strings.HasPrefix(w.val, "paste") {
				x.add(Deny, RuleWrapperPriv, "tmux "+w.val+" types into a terminal, where it can answer Sentinel's approval cards")
				return
			}
		}
	case "screen":
		for i, w := range args[1:] {
			if w.val == "-X" && i+2 < len(args) {
				switch args[i+2].val {
				case "stuff", "paste", "exec", "eval", "readbuf", "readreg", "register", "screen", "source":
					x.add(Deny, RuleWrapperPriv, "screen -X "+args[i+2].val+" types or runs commands in another terminal, where it can answer Sentinel's approval cards")
					return
				}
			}
		}
	case "xdotool", "ydotool", "wtype", "xte", "dotool":
		for _, w := range args[1:] {
			switch w.val {
			case "type", "key", "keydown", "keyup", "click", "mousedown", "mouseup", "exec":
				x.add(Deny, RuleWrapperPriv, prog+" "+w.val+" types into the person's screen, where it can answer Sentinel's approval cards")
				return
			}
		}
		if prog != "xdotool" {
			x.add(Deny, RuleWrapperPriv, prog+" types into the person's screen, where it can answer Sentinel's approval cards")
		}
	case "kill", "pkill", "killall", "pgrep", "pidof":
		for _, w := range args[1:] {
			if strings.Contains(strings.ToLower(w.val), "sentinel") {
				x.add(Deny, RuleWrapperPriv, prog+" finds or signals Sentinel itself, which supervises the coder")
				return
			}
		}
	}
}

// unshareUserNS reports whether unshare's options make a user namespace.
func unshareUserNS(args []word) bool {
	for _, w := range args {
		v := w.val
		switch {
		case v == "--":
			return false
		case strings.HasPrefix(v, "--"):
			if v == "--user" || strings.HasPrefix(v, "--user=") || strings.HasPrefix(v, "--map-") {
				return true
			}
		case strings.HasPrefix(v, "-") && len(v) > 1:
			if strings.ContainsAny(v[1:], "rU") {
				return true
			}
		default:
			return false // the program unshare runs
		}
	}
	return false
}

// sshValued are ssh's short options that take a value.
const sshValued = "BbcDEeFIiJLlmOoPpQRSWw"

// sshLoopback returns the destination of an ssh-family command when it is
// this machine. every says each operand may name a host (scp, sftp); for
// ssh the first operand is the host and the rest is the remote command.
func sshLoopback(args []word, every bool) (string, bool) {
	for i := 0; i < len(args); i++ {
		v := args[i].val
		if strings.HasPrefix(v, "-") && len(v) > 1 {
			if last := v[len(v)-1:]; len(v) == 2 && strings.Contains(sshValued, last) {
				i++
			}
			continue
		}
		h := v
		h = strings.TrimPrefix(h, "ssh://")
		h = strings.TrimPrefix(h, "sftp://")
		if at := strings.LastIndex(h, "@"); at >= 0 {
			h = h[at+1:]
		}
		if strings.HasPrefix(h, "[") {
			if end := strings.Index(h, "]"); end > 0 {
				h = h[1:end]
			}
		} else if c := strings.IndexAny(h, ":/"); c >= 0 && strings.Count(h, ":") < 2 {
			h = h[:c]
		}
		if isLoopbackHost(h) {
			return h, true
		}
		if !every {
			return "", false
		}
	}
	return "", false
}

// isLoopbackHost reports whether h names this machine.
func isLoopbackHost(h string) bool {
	h = strings.ToLower(strings.TrimSuffix(h, "."))
	switch h {
	case "":
		return false
	case "localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback", "0", "0.0.0.0", "::", "::1":
		return true
	}
	if strings.HasSuffix(h, ".localhost") {
		return true
	}
	if ip := net.ParseIP(h); ip != nil {
		return ip.IsLoopback() || ip.IsUnspecified()
	}
	if name, err := os.Hostname(); err == nil && strings.EqualFold(name, h) {
		return true
	}
	return false
}
