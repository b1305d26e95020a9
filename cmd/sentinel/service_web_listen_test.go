package main

import "testing"

// The service warns about plain HTTP off loopback only.
func TestLoopbackAddr(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:8787": true, "localhost:8787": true, "[::1]:8787": true, "127.9.9.9:1": true,
		"0.0.0.0:8787": false, "[::]:8787": false, "100.64.1.2:8787": false, "box.tailnet.ts.net:443": false, ":8787": false,
	} {
		if got := loopbackAddr(addr); got != want {
			t.Errorf("loopbackAddr(%q) = %v, want %v", addr, got, want)
		}
	}
}
