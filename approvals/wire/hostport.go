package wire

import "strings"

// splitHostPort splits "host:port" or "[host]:port" exactly where the
// standard library's net.SplitHostPort does, and fails where it fails
// (FuzzSplitHostPortAgreesWithNet): this package must not link net.
func splitHostPort(s string) (host, port string, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return "", "", false
	}
	from := 0 // where no '[' or ']' may appear any more
	if s[0] == '[' {
		end := strings.IndexByte(s, ']')
		if end+1 != i { // no ']', or it is not right before the last ':'
			return "", "", false
		}
		host, from = s[1:end], end+1
		if strings.IndexByte(s[1:], '[') >= 0 {
			return "", "", false
		}
	} else {
		host = s[:i]
		if strings.IndexByte(host, ':') >= 0 || strings.IndexByte(s, '[') >= 0 {
			return "", "", false
		}
	}
	if strings.IndexByte(s[from:], ']') >= 0 {
		return "", "", false
	}
	return host, s[i+1:], true
}
