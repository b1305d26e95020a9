package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The end report's flag of a coder-written .envrc that sets
// SENTINEL_SHIM_BYPASS names the variable (31-ipatk16: flagged as
// run-later, without saying that it turns the shims off).
func TestInPlaceFlagOfAnEnvrcSettingTheBypassNamesIt(t *testing.T) {
	t.Parallel()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	flagged, _ := flagsOfAChange(t, root, func() {
		if err := os.WriteFile(filepath.Join(root, ".envrc"), []byte("export SENTINEL_SHIM_BYPASS=1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	if r := flagged[".envrc"]; !strings.Contains(r, "SENTINEL_SHIM_BYPASS") {
		t.Errorf(".envrc's flag does not name SENTINEL_SHIM_BYPASS: %q (all: %v)", r, flagged)
	}
}
