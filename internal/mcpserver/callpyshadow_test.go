//go:build unix

package mcpserver

import (
	"path/filepath"
	"strings"
	"testing"
)

// An mcp exec that makes ./pip/__init__.py at the top of an rw path is
// told as the end report tells it: `python -m pip` typed there imports it
// instead of the installed pip, on the host (31-ipatk15).
func TestCallFlagsAPythonModuleThatShadowsAnInstalledOne(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	warn := &syncBuffer{}
	cs, _ := session(t, mustConfig(t, f.config(`exec_mode = "unrestricted"`)), Options{Helper: bin, Warn: warn})
	answer := mustAllow(t, cs, "exec", map[string]any{"command": "mkdir pip && echo 'import os' > pip/__init__.py && echo x=1 > app.py", "cwd": f.rw})
	abs := filepath.Join(f.rw, "pip", "__init__.py")
	if !strings.Contains(answer, abs+": a Python module named `pip`") || !strings.Contains(warn.String(), "a Python module named `pip`") {
		t.Errorf("the module is not told:\n%s\n--\n%s", answer, warn.String())
	}
	if strings.Contains(answer, filepath.Join(f.rw, "app.py")+":") {
		t.Errorf("a project's own module is told:\n%s", answer)
	}
}
