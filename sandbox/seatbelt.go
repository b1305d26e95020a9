package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// SeatbeltProfile renders p (normalized) as a macOS Seatbelt profile for
// /usr/bin/sandbox-exec, from the same Plan the Linux backends mount:
// deny by default; the system locations (seatbeltSystem) and the plan's
// readable paths read-only; the workspace, its caches, agent state and the
// private temp dir writable; protected paths and Sentinel's state readable
// and never written; hidden paths — the credential list every profile
// hides, macOS's own stores (seatbeltHomeHidden) and machine secrets —
// neither; network only to the proxy's loopback port (proxyPort 0: none)
// and the unix sockets in Sentinel's read-only state (the broker); Mach
// services only from seatbeltMachServices; no Apple Events; no
// process-info of processes outside the sandbox. It is plain Go, tested
// on every platform; only running it is darwin-only.
func SeatbeltProfile(p Profile, proxyPort int) (string, error) {
	home, _ := os.UserHomeDir()
	return renderSeatbelt(PlanOf(p, nil), home, proxyPort)
}

// renderSeatbelt renders pl; home places seatbeltHomeHidden ("" leaves
// them out). The rules come in order of precedence, weakest first: in
// Seatbelt a later rule that matches wins, so the denials of hidden and
// never-written paths come after every allowance they cut into.
func renderSeatbelt(pl Plan, home string, proxyPort int) (string, error) {
	var b strings.Builder
	var bad error
	q := func(s string) string {
		out, err := sbString(s)
		if err != nil && bad == nil {
			bad = err
		}
		return out
	}
	rule := func(head string, filters []string) {
		if len(filters) == 0 {
			return
		}
		b.WriteString("(" + head)
		for _, f := range filters {
			b.WriteString("\n  " + f)
		}
		b.WriteString(")\n")
	}
	paths := func(kind string, ps []string) []string {
		var out []string
		for _, p := range ps {
			for _, v := range sbVariants(p) {
				if f := "(" + kind + " " + q(v) + ")"; !slices.Contains(out, f) {
					out = append(out, f)
				}
			}
		}
		return out
	}
	entries := func(head, kind string, es []sbEntry) {
		b.WriteString("(" + head)
		for _, e := range es {
			fmt.Fprintf(&b, "\n  (%s %s) ; %s", kind, q(e.name), e.why)
		}
		b.WriteString("\n)\n") // on its own line: a comment runs to the end of its line
	}

	hidden := slices.Clone(pl.Hidden)
	hidden = append(hidden, seatbeltSystemHidden...)
	if home != "" {
		for _, h := range seatbeltHomeHidden {
			hidden = append(hidden, filepath.Join(home, h))
		}
	}
	var system []string
	for _, s := range seatbeltSystem {
		system = append(system, s.name)
	}
	system = append(system, pl.System...)

	b.WriteString("(version 1)\n(deny default)\n\n")
	b.WriteString("; Processes: the coder's own tree, nothing outside it.\n")
	b.WriteString("(allow process-fork)\n(allow process-exec)\n")
	b.WriteString("(allow signal (target same-sandbox))\n(allow process-info* (target same-sandbox))\n")
	b.WriteString("(deny appleevent-send)\n(deny mach-priv-task-port)\n\n")
	b.WriteString("; Mach services: only these, each for a reason.\n")
	entries("allow mach-lookup", "global-name", seatbeltMachServices)
	if pl.Net == NetHost {
		entries("allow mach-lookup", "global-name", seatbeltNetHostServices)
	}
	b.WriteString("(allow mach-host*) ; the CPU list (Node's os.cpus(), libuv's thread pool size)\n")
	b.WriteString("(allow ipc-posix-sem) ; named semaphores (Python's multiprocessing locks)\n")
	b.WriteString("(allow sysctl-read")
	for _, s := range seatbeltSysctls {
		kind := "sysctl-name"
		if strings.HasSuffix(s.name, ".") {
			kind = "sysctl-name-prefix"
		}
		fmt.Fprintf(&b, "\n  (%s %s) ; %s", kind, q(s.name), s.why)
	}
	b.WriteString("\n)\n\n")

	b.WriteString("; Terminals and devices: the coder's own pty and the harmless devices.\n")
	b.WriteString("(allow pseudo-tty)\n")
	ttys := []string{`(literal "/dev/tty")`, `(literal "/dev/ptmx")`, `(regex #"^/dev/ttys[0-9]+$")`}
	rule("allow file-read* file-write-data file-ioctl", ttys)
	rule("allow file-read*", []string{`(literal "/dev/null")`, `(literal "/dev/zero")`, `(literal "/dev/random")`,
		`(literal "/dev/urandom")`, `(subpath "/dev/fd")`})
	rule("allow file-write-data", []string{`(literal "/dev/null")`, `(subpath "/dev/fd")`})
	b.WriteString("\n")

	b.WriteString("; The way down to everything shown: metadata of each directory above it (realpath, getcwd).\n")
	var shown []string
	shown = append(append(append(append(shown, system...), pl.Readable...), pl.ReadOnly...), pl.Writable...)
	rule("allow file-read-metadata", paths("literal", ancestors(shown)))
	b.WriteString("; System locations, read-only.\n")
	rule("allow file-read*", append(paths("subpath", system), `(literal "/etc")`, `(literal "/var")`, `(literal "/tmp")`,
		`(regex #"^/Applications/Xcode[^/]*\.app(/|$)")`))
	b.WriteString("; The profile's readable paths (PATH entries, toolchains), read-only.\n")
	rule("allow file-read*", paths("subpath", pl.Readable))
	b.WriteString("; Protected paths and Sentinel's own state: readable.\n")
	rule("allow file-read*", paths("subpath", pl.ReadOnly))
	b.WriteString("; Writable roots: the workspace, its caches, agent state, the private temp dir.\n")
	rule("allow file-read* file-write*", paths("subpath", pl.Writable))
	b.WriteString("; Never written: protected paths, Sentinel's state, and the directories inside a\n")
	b.WriteString("; writable root that lead to one of them or to a hidden path (so none is renamed away).\n")
	rule("deny file-write*", append(paths("subpath", pl.ReadOnly), paths("literal", leadsTo(append(slices.Clone(pl.ReadOnly), hidden...), pl.Writable))...))
	b.WriteString("; Hidden: the credential list, macOS's own stores and machine secrets, wherever they are.\n")
	rule("deny file-read* file-write*", paths("subpath", hidden))
	b.WriteString("\n")

	b.WriteString("; Network: only Sentinel's proxy on loopback, and the broker's socket.\n")
	switch pl.Net {
	case NetHost:
		b.WriteString("(allow network-outbound)\n(allow network-inbound)\n(allow network-bind)\n")
		rule("allow network-outbound", []string{`(literal "/private/var/run/mDNSResponder")`})
	case NetProxy:
		if proxyPort > 0 {
			fmt.Fprintf(&b, "(allow network-outbound (remote ip %s))\n", q("localhost:"+strconv.Itoa(proxyPort)))
		}
	}
	rule("allow network-outbound", paths("subpath", pl.Sockets))
	if bad != nil {
		return "", bad
	}
	return b.String(), nil
}

// sbVariants is p and, for a path under /etc, /var or /tmp, its /private
// form: Seatbelt matches the resolved path, and on macOS those three are
// links into /private.
func sbVariants(p string) []string {
	for _, l := range []string{"/etc", "/var", "/tmp"} {
		if within(p, l) {
			return []string{p, "/private" + p}
		}
	}
	return []string{p}
}

// ancestors are the directories above each path, "/" included.
func ancestors(ps []string) []string {
	var out []string
	for _, p := range ps {
		for d := filepath.Dir(p); ; d = filepath.Dir(d) {
			if !slices.Contains(out, d) {
				out = append(out, d)
			}
			if d == "/" || d == "." {
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// leadsTo are the directories strictly inside a writable root on the way
// to one of paths: renaming one would move that path out from under its
// rule.
func leadsTo(paths, writable []string) []string {
	var out []string
	for _, p := range paths {
		for _, w := range writable {
			if p == w || !within(p, w) {
				continue
			}
			for d := filepath.Dir(p); d != w && within(d, w); d = filepath.Dir(d) {
				if !slices.Contains(out, d) {
					out = append(out, d)
				}
			}
		}
	}
	return out
}

// sbString quotes s as a Seatbelt (Scheme) string literal. A control
// character has no safe spelling there and is refused.
func sbString(s string) (string, error) {
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return "", fmt.Errorf("sandbox profile: path %q holds a control character, which a Seatbelt profile cannot name; rename it", s)
		}
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`, nil
}
