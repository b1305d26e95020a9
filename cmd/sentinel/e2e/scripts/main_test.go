package scripts

import (
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

func TestMain(m *testing.M) { e2etest.Main(m, nil, nil) }
