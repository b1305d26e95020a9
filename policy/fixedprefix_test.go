package policy

import "testing"

// TestExpansionAfterAFixedOutsideDirectory: a path whose expansion follows
// a fixed directory outside the workspace is judged by that directory
// (polcorp7 spell/var: rm -rf /home/$USER); an expansion with no fixed
// directory, or one inside the workspace, still only asks.
func TestExpansionAfterAFixedOutsideDirectory(t *testing.T) {
	checkModes(t, []modeCase{
		{"rm -rf /home/$USER", "deny", "deny"},
		{`rm -rf "/etc/$NAME"`, "deny", "deny"},
		{"cp build/main /usr/local/bin/$NAME", "deny", "deny"},
		{`rm -rf /home/us"$X"`, "deny", "deny"},
		{"rm -rf build/$X", "ask", "ask"},
		{`rm -rf "$OUT"`, "ask", "ask"},
		{"go test ./... > /tmp/go-$X.log", "ask", "deny"},
	})
}
