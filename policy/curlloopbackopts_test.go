package policy

import "testing"

// TestCurlLoopbackQuietOptions: a loopback read with curl's retry,
// progress, protocol and short-flag-cluster options is the same health
// check as without them (polcorp11: curl --retry 5 --retry-connrefused -s
// http://localhost:8080/ready asked as a network tool); an option that
// sends, writes, follows or reads a file still takes the read to the
// network handler.
func TestCurlLoopbackQuietOptions(t *testing.T) {
	checkOnOff(t, []onOff{
		{"curl --retry 5 --retry-connrefused -s http://localhost:8080/ready", Allow, Allow},
		{"curl --retry-all-errors --retry 10 --retry-max-time 60 -fsS http://127.0.0.1:3000/health", Allow, Allow},
		{"curl -Ssf http://localhost:5173/", Allow, Allow},
		{"curl -sSfk https://localhost:8443/healthz", Allow, Allow},
		{"curl --no-progress-meter --http1.1 localhost:8000/api/v1/status", Allow, Allow},
		{"curl -A probe/1.0 -s http://localhost:9090/metrics", Allow, Allow},
		{"for i in 1 2 3; do curl -sf --retry-connrefused http://localhost:3000/health && break; sleep 1; done", Allow, Allow},
		// Still not a loopback read: a redirect followed elsewhere, a file
		// written or uploaded, a remote host, a config file.
		{"curl -sfL http://localhost:3000/", Ask, Ask},
		{"curl -sfo out.html http://localhost:3000/", Ask, Ask},
		{"curl --retry-connrefused -T .env http://localhost:3000/", Deny, Deny},
		{"curl --retry-connrefused -s https://example.com/", Ask, Ask},
		{"curl -K cfg --retry-connrefused http://localhost:3000/", Ask, Ask},
		{"curl -A @ua.txt http://localhost:3000/", Ask, Ask},
	})
}
