package policy

import "strings"

// curl's options that change neither what a loopback request sends, nor
// where it goes, nor what it writes, beside the few localGet
// (ecosystems_tools.go) names one by one (polcorp11: curl --retry 5
// --retry-connrefused -s http://localhost:8080/ready, the wait-for-server
// loop of README Development sections, asked as a network tool; -Ssf asked
// where -sSf was allowed). Names are matched exactly: curl takes no
// --name=value form, and an abbreviation (which older curls resolve) is
// no flag here, so it leaves the read to the network handler.

// curlQuietLong are flag options of that kind: retries, progress output,
// protocol version, buffering, address family, globbing.
var curlQuietLong = wordSet{words: []string{"--retry-connrefused", "--retry-all-errors", "--no-progress-meter",
	"--progress-bar", "--no-buffer", "--globoff", "--http1.0", "--http1.1", "--http2", "--http2-prior-knowledge",
	"--ipv4", "--ipv6", "--tcp-nodelay", "--no-keepalive", "--no-sessionid", "--raw", "--styled-output", "--no-styled-output"}}

// curlQuietValued are options of that kind whose value is a number, or a
// name the server is told (--user-agent): the value is read, not sent
// elsewhere and not a file.
var curlQuietValued = wordSet{words: []string{"--retry-max-time", "--keepalive-time", "--speed-time", "--speed-limit",
	"--expect100-timeout", "--max-filesize", "--max-redirs", "-A", "--user-agent", "-Y", "-y"}}

// curlQuietShort are the short flags a cluster may join in any order:
// -s -S -f -i -I -v -k -N -g -4 -6 -# (no -L, -o, -O, -T, -K, -d, -F, -u).
const curlQuietShort = "sSfiIvkNg46#"

// curlLoopbackFlag reports whether v is one flag, or a cluster of short
// flags, of curl that changes nothing but how a loopback read reports.
func curlLoopbackFlag(v string) bool {
	if curlQuietLong.has(v) {
		return true
	}
	if len(v) < 2 || v[0] != '-' || v[1] == '-' {
		return false
	}
	for _, c := range v[1:] {
		if !strings.ContainsRune(curlQuietShort, c) {
			return false
		}
	}
	return true
}

// curlLoopbackValued reports whether v is an option of curlQuietValued
// and its value, the next word, a plain one (a number, or for the agent
// name any static text).
func curlLoopbackValued(v string, next word) bool {
	if !curlQuietValued.has(v) || !next.static {
		return false
	}
	switch v {
	case "-A", "--user-agent":
		return !strings.HasPrefix(next.val, "@")
	}
	return numericValue(next.val)
}
