package runner

import (
	"path/filepath"
	"strings"
	"testing"
)

// The end report flags a go.mod whose toolchain line the coder changed
// and a go.work whose go line it raised (the person's next go command
// there downloads and runs that toolchain), reading the old content from
// the checkpoint; a go.mod edited otherwise is not flagged. The last
// round left it: the report had no old content to compare.
func TestInPlaceFlagsAGoToolchainChange(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root := t.TempDir()
	mod := "module example.com/m\n\ngo 1.22\n"
	for name, body := range map[string]string{"go.mod": mod, "go.work": "go 1.22\n\nuse .\n", "lib/go.mod": mod, "main.go": "package main\n"} {
		writeTestFile(t, filepath.Join(root, name), body)
	}
	flagged, _ := flagsOfAChange(t, root, func() {
		writeTestFile(t, filepath.Join(root, "go.mod"), mod+"\ntoolchain go1.99.1\n")
		writeTestFile(t, filepath.Join(root, "go.work"), "go 1.99\n\nuse .\n")
		writeTestFile(t, filepath.Join(root, "lib/go.mod"), mod+"\nrequire example.com/x v1.0.0\n")
	})
	for p, want := range map[string]string{
		"go.mod":  "its toolchain line now names go1.99.1",
		"go.work": "its go line now asks for go 1.99 (was 1.22)",
	} {
		if !strings.Contains(flagged[p], want) || !strings.Contains(flagged[p], "downloads and runs that toolchain") {
			t.Errorf("%s: flagged %q, want it to say %q", p, flagged[p], want)
		}
	}
	if r, ok := flagged["lib/go.mod"]; ok {
		t.Errorf("lib/go.mod (a require added) flagged: %q", r)
	}
}
