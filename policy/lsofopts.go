package policy

import "strings"

// lsofCluster reads lsof's short flags written together (issue 32,
// polcorp6 class E5): `lsof -ti:8081` is `lsof -t -i :8081`, the pid that
// holds a port, as `lsof -t -i:8081` already is. Only the listing flags
// lsofCmd knows (t, n, P, V) may stand before i, and what follows i is a
// port or address spec; any other letter (+r repeat, -F fields, -p, -c,
// -u, -D) is judged as before.
func lsofCluster(v string) bool {
	if !strings.HasPrefix(v, "-") || strings.HasPrefix(v, "--") {
		return false
	}
	flags, spec, found := strings.Cut(v[1:], "i")
	if flags == "" || strings.Trim(flags, "tnPV") != "" {
		return false
	}
	return !found || strings.Trim(spec, "TCPUDPLISTENABHDOWN:@.0123456789[]46") == ""
}
