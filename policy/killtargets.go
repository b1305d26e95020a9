package policy

import (
	"path"
	"strings"
)

// Process killing judged by the class of its target (polcorp7 class 5):
// every process of a user (`pkill -9 -u $USER`, `killall -u me`, a pattern
// that matches every name), the system's own daemons and sessions
// (`killall -9 sshd`, `pkill systemd`), or init (`kill -9 1`) is denied —
// no review brings the person's session back. A named program of the
// coder's (`pkill -f "node server.js"`, `kill 12345`) still asks as before.

// systemProcesses are daemons and session processes a coder never starts:
// killing one logs the person out, cuts their remote access or stops the
// machine's services (and Sentinel itself).
var systemProcesses = wordSet{words: []string{"init", "systemd", "systemd-journald", "systemd-logind", "systemd-udevd",
	"systemd-resolved", "systemd-networkd", "journald", "udevd", "sshd", "ssh-agent", "gpg-agent", "dbus-daemon", "dbus-broker",
	"xorg", "x", "xwayland", "gnome-shell", "gnome-session", "kwin", "kwin_x11", "kwin_wayland", "plasmashell", "gdm", "gdm3",
	"lightdm", "sddm", "login", "agetty", "getty", "networkmanager", "wpa_supplicant", "cron", "crond", "atd", "rsyslogd",
	"syslogd", "polkitd", "snapd", "dockerd", "containerd", "kubelet", "pipewire", "pulseaudio", "wireplumber", "launchd",
	"windowserver", "loginwindow", "finder", "dock", "tmux", "tmux: server", "screen", "sentinel", "sentinel-helper", "bash",
	"zsh", "fish", "sh"}}

// killAllPatterns match every process name.
func killAllPattern(p string) bool {
	switch strings.Trim(p, "^$") {
	case "", ".", ".*", ".+", "*", "[a-z]*", "[[:alnum:]]*", "[^ ]*", ".?":
		return true
	}
	return false
}

// systemProcessPattern reports a pkill/killall pattern naming a system
// process: its first word (a -f pattern may be a whole command line), as a
// base name, with regex anchors taken off.
func systemProcessPattern(p string) bool {
	p = strings.Trim(strings.TrimSpace(p), "^$")
	if f := strings.Fields(p); len(f) > 0 {
		p = f[0]
	}
	return systemProcesses.has(strings.ToLower(path.Base(p)))
}

// pkillCmd judges pkill and killall.
func pkillCmd(x *cmdCtx, args []word) {
	prog := path.Base(args[0].val)
	killall := prog == "killall"
	userWide := false
	var patterns []word
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		v := rest[i].val
		takes := func() bool {
			if i+1 < len(rest) {
				i++
			}
			return true
		}
		switch {
		case v == "--":
			patterns = append(patterns, rest[i+1:]...)
			i = len(rest)
		case v == "-u" || v == "-U" || v == "--user" || v == "--uid" || v == "--euid":
			userWide = takes()
		case strings.HasPrefix(v, "--user=") || strings.HasPrefix(v, "--uid=") || strings.HasPrefix(v, "--euid=") ||
			!killall && (strings.HasPrefix(v, "-u") || strings.HasPrefix(v, "-U")) && len(v) > 2:
			userWide = true
		case v == "-s" || v == "--signal" || v == "--ns" || v == "--nslist" || v == "-F" || v == "--pidfile",
			!killall && (v == "-g" || v == "-G" || v == "-P" || v == "-t" || v == "--session" || v == "--parent" ||
				v == "--group" || v == "--pgroup" || v == "--terminal" || v == "-O" || v == "--older"),
			killall && (v == "-y" || v == "-o" || v == "--older-than" || v == "--younger-than" || v == "-n" || v == "--ns"):
			takes()
		case strings.HasPrefix(v, "-"):
		default:
			patterns = append(patterns, rest[i])
		}
	}
	if len(patterns) == 0 && userWide {
		x.add(Deny, RuleSystem, prog+" -u with no name kills every process of the user: the person's session, editor and agent")
		return
	}
	for _, p := range patterns {
		if !p.static {
			continue
		}
		if killAllPattern(p.val) && (!killall || hasOpt(args[1:], "r", "--regexp")) {
			x.add(Deny, RuleSystem, prog+" "+quoteShort(p.val)+" matches every process")
			return
		}
		if systemProcessPattern(p.val) {
			x.add(Deny, RuleSystem, prog+" "+quoteShort(p.val)+" kills a system daemon or the person's session, which the coder never started")
			return
		}
	}
	x.add(Ask, RuleShellOption, prog+" changes this shell, other processes or file ownership")
}

// killInit denies kill of PID 1 (init: the machine, or the sandbox's whole
// tree) and hands the rest to prev.
func killInit(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		for _, w := range operands(args[1:], "sn", nil) {
			if w.static && w.val == "1" {
				x.add(Deny, RuleSystem, "kill of process 1 (init) stops the machine or every process the coder can reach")
				return
			}
		}
		prev(x, args)
	}
}

func addKillHandlers(handlers map[string]handler) {
	handlers["pkill"] = pkillCmd
	handlers["killall"] = pkillCmd
	handlers["kill"] = killInit(handlers["kill"])
}
