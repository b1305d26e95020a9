package policy

import "testing"

// GNU find reads `--` as the end of its options, so `find -- -delete`
// walks "." and deletes the workspace, as `find -delete` does (revin: it
// got past sentinel mcp's allowlist gate, which refuses denies only, and
// emptied the folder with real find).
func TestFindDoubleDashStillWipes(t *testing.T) {
	checkOnOff(t, []onOff{
		{"find -- -delete", Deny, Deny},
		{"find -- . -delete", Deny, Deny},
		{"find -L -- -delete", Deny, Deny},
		{"find -- . -name '*.go'", Allow, Allow},
	})
}
