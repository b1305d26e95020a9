//go:build unix

package mcpserver

import (
	"testing"

	"github.com/sentinelhq/sentinel/internal/testbin"
)

// TestMain removes the sentinel binary the exec tests built.
func TestMain(m *testing.M) { testbin.Main(m) }
