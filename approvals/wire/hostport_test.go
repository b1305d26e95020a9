package wire

import (
	"net"
	"testing"
)

// splitHostPort is net.SplitHostPort's split without linking net: it must
// accept and split exactly what that does.
func FuzzSplitHostPortAgreesWithNet(f *testing.F) {
	for _, s := range []string{"", "a", "a:1", "a:", ":1", "a:b:c", "[::1]:80", "[::1]", "[::1]x:80", "[a]:b:c",
		"[[a]]:1", "a]:1", "[a:1", "a[b]:1", "::1", "[]:", "]:", "[", "registry.npmjs.org:443", "[fe80::1%eth0]:8080"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, p, ok := splitHostPort(s)
		nh, np, err := net.SplitHostPort(s)
		if ok != (err == nil) || ok && (h != nh || p != np) {
			t.Fatalf("splitHostPort(%q) = %q, %q, %v; net: %q, %q, %v", s, h, p, ok, nh, np, err)
		}
	})
}
