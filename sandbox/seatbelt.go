package sandbox

import (
	"fmt"
	"strconv"
	"strings"
)

// SeatbeltProfile renders p as a macOS Seatbelt (sandbox-exec) profile:
// deny by default; read system locations and the profile's readable paths;
// write the workspace, the temp dir and the agent's state; hidden paths
// neither; protected paths and Sentinel's state never written; network only
// to the proxy's loopback port (proxyPort 0: no network at all). It is plain
// Go so it is tested on every platform; only running it is darwin-only.
func SeatbeltProfile(p Profile, proxyPort int) string {
	var b strings.Builder
	b.WriteString("(version 1)\n(deny default)\n")
	b.WriteString("(allow process-exec process-fork)\n(allow signal (target same-sandbox))\n")
	b.WriteString("(allow sysctl-read)\n(allow mach-lookup)\n(allow ipc-posix-shm)\n(allow pseudo-tty)\n")
	b.WriteString("(allow file-ioctl (literal \"/dev/tty\") (regex #\"^/dev/ttys[0-9]+$\"))\n")
	write := func(rule string, paths []string) {
		if len(paths) == 0 {
			return
		}
		b.WriteString("(" + rule)
		for _, p := range paths {
			b.WriteString(" (subpath " + sbString(p) + ")")
		}
		b.WriteString(")\n")
	}
	readable := append([]string{"/usr", "/bin", "/sbin", "/System", "/Library", "/private/etc",
		"/private/var/db", "/opt", "/dev", "/Applications"}, p.Readable...)
	readable = append(readable, p.ReadOnly...)
	write("allow file-read*", readable)
	b.WriteString("(allow file-read-metadata)\n")
	rw := append([]string{p.Workspace}, p.Writable...)
	if p.TempDir != "" {
		rw = append(rw, p.TempDir)
	}
	write("allow file-read* file-write*", rw)
	b.WriteString("(allow file-write-data (literal \"/dev/null\") (literal \"/dev/tty\") (regex #\"^/dev/ttys[0-9]+$\"))\n")
	write("deny file-read* file-write*", p.Hidden)
	write("deny file-write*", append(append([]string{}, p.Protected...), p.ReadOnly...))
	if proxyPort > 0 && p.Net == NetProxy {
		b.WriteString("(allow network-outbound (remote tcp " + sbString("localhost:"+strconv.Itoa(proxyPort)) + "))\n")
	}
	if p.Net == NetHost {
		b.WriteString("(allow network*)\n")
	}
	return b.String()
}

// sbString quotes s as a Seatbelt string literal.
func sbString(s string) string {
	return fmt.Sprintf("%q", s)
}
