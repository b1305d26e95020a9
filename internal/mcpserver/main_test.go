//go:build unix

package mcpserver

import (
	"testing"

	"github.com/sentinelhq/sentinel/internal/testdirs"
)

// TestMain gives the test process state, config and runtime dirs of its own
// (no user service unless a test starts one), so that the tests which only
// need them kept from the person's run in parallel; a test that writes into
// one, or must see only its own files there, sets its own and runs alone.
func TestMain(m *testing.M) {
	testdirs.Main(m, "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR")
}
