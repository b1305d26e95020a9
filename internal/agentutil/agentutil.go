// Package agentutil holds the small helpers the agent adapters share:
// reading an agent's version from its files (never by running it) and
// comparing versions, naming the host:port a URL reaches, reading a
// command's exit status, resolving a path through its existing links and
// quoting a hook command for a shell; reading settings files written as
// JSON with comments (JSONC).
//
// It must not know about any one agent.
package agentutil

import (
	"errors"
	"net"
	"net/url"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

var versionRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\d+)\.(\d+)\.(\d+)`) })

// FindVersion is the first dotted numeric version (1.2.3) in s, such as a
// CLI's --version output, or "" when there is none.
func FindVersion(s string) string { return versionRe().FindString(s) }

// CompareVersions compares the first dotted numeric versions found in a and
// b: -1, 0 or 1.
func CompareVersions(a, b string) int {
	pa, pb := versionRe().FindStringSubmatch(a), versionRe().FindStringSubmatch(b)
	for i := 1; i <= 3; i++ {
		var x, y int
		if len(pa) > i {
			x, _ = strconv.Atoi(pa[i])
		}
		if len(pb) > i {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// URLHostPort is the lower-cased host:port a URL reaches, with the scheme's
// default port (80 for http, else 443); ok is false when it names no host.
func URLHostPort(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return "", false
	}
	port := u.Port()
	if port == "" {
		port = "443"
		if strings.EqualFold(u.Scheme, "http") {
			port = "80"
		}
	}
	return net.JoinHostPort(strings.ToLower(u.Hostname()), port), true
}

// ExitStatus is a finished command's exit status as a shell reports it:
// 0, the process's own status, 128+N when killed by signal N, or -1 when it
// never ran.
func ExitStatus(err error) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	}
	return -1
}

// Needs is everything a run must add to its sandbox profile for one real
// agent: writable state, readable install locations, read-only settings
// files, paths to hide, environment names to pass and to strip, and hosts
// to allow.
type Needs struct {
	Writable   []string
	Readable   []string
	Protected  []string
	Hidden     []string
	PassEnv    []string
	DropEnv    []string
	AllowHosts []string
	// Places are files the agent needs shown read-only at a fixed path
	// (inside path → host file Sentinel wrote): the sandbox's places.
	Places map[string]string
}

// ShellQuote quotes s for a POSIX shell (agents run hook commands through
// one): as it is when it holds only path-safe characters, else in single
// quotes.
func ShellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
