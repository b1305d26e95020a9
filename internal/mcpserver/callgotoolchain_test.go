//go:build unix

package mcpserver

import (
	"path/filepath"
	"strings"
	"testing"
)

// A call that adds a toolchain line to a go.mod is told it, in the answer
// and to the person, as the end report tells it: the person's next go
// command there downloads and runs that toolchain. A require added is not.
func TestCallFlagsAGoToolchainChange(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	write(t, filepath.Join(f.rw, "go.mod"), "module example.com/m\n\ngo 1.22\n")
	write(t, filepath.Join(f.rw, "lib", "go.mod"), "module example.com/lib\n\ngo 1.22\n")
	warn := &syncBuffer{}
	cs, _ := session(t, mustConfig(t, f.config(`exec_mode = "unrestricted"`)), Options{Helper: bin, Warn: warn})
	answer := mustAllow(t, cs, "exec", map[string]any{"command": "printf 'toolchain go1.99.1\\n' >> go.mod && printf 'require example.com/x v1.0.0\\n' >> lib/go.mod", "cwd": f.rw})
	abs := filepath.Join(f.rw, "go.mod")
	if !strings.Contains(answer, abs+": its toolchain line now names go1.99.1") || !strings.Contains(warn.String(), "its toolchain line now names go1.99.1") {
		t.Errorf("the new toolchain line is not told:\n%s\n--\n%s", answer, warn.String())
	}
	if strings.Contains(answer, filepath.Join(f.rw, "lib", "go.mod")+":") {
		t.Errorf("a require added is told:\n%s", answer)
	}
}
