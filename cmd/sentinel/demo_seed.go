package main

import (
	"github.com/sentinelhq/sentinel/internal/config"
	"github.com/sentinelhq/sentinel/runner"
)

// A new person's first demo verifies its patch with go test and go vet,
// which wait for the Go build cache seed when it is not built yet (once
// per Go version on a machine; runner/verify_goseed.go). A run starts the
// seed once its coder and project are checked (runner.WarmGoSeed in
// runner.Start), but the demo knows its project sooner: the seed starts as
// soon as the sample's files are written, before git makes the sample's
// commit and the run starts (measured in docs/measure/first-demo.sh: the
// run started 0.7-1.5 s after the demo at load 7-14), so the coder's
// seconds of work cover more of it. The run's own warm-up then joins the
// build under way.

// warmDemoSeed starts the seed for the checks the demo's run will verify
// dir with (--verify, else the config's, else those detected), as the run
// would: with the person's programs pinned first, outside dir and the
// configured writable roots. A config that does not load starts nothing
// (the run says what is wrong with it). Tests replace it.
var warmDemoSeed = func(verify []string, dir string) {
	cfg, _, err := config.LoadProject(dir)
	if err != nil {
		return
	}
	pinHostPrograms(dir, cfg.Exec.Writable)
	runner.WarmGoSeed(dir, checksFor(verify, cfg, dir))
}
