package geminicli

import (
	"testing"

	"github.com/sentinelhq/sentinel/internal/testbin"
)

// TestMain removes the sentinel binary the end-to-end tests built.
func TestMain(m *testing.M) { testbin.Main(m) }
