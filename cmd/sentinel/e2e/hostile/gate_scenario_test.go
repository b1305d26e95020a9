package hostile

import "github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"

// gateScenario writes one file and says it is done (as in e2e/runs).
const gateScenario = e2etest.GateScenario
