package agents

import (
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// opencode and gemini compute through most of each test: one test per core.
func TestMain(m *testing.M) { e2etest.MainComputing(m, nil, nil) }
