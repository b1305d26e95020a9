package main

import (
	"fmt"
	"os"
	"sync"

	"github.com/sentinelhq/sentinel/runner"
)

var reportedUnverified sync.Map

// verifiedRuns is every run record of the project Sentinel can prove it
// wrote, newest first. Each entry under .sentinel/runs it ignored (planted,
// or changed since Sentinel wrote it) is reported once on stderr.
func verifiedRuns(p *runner.Project) ([]*runner.Meta, error) {
	metas, bad, err := runner.ScanRuns(p)
	for _, u := range bad {
		if _, seen := reportedUnverified.LoadOrStore(u.Name, true); !seen {
			fmt.Fprintln(os.Stderr, "sentinel: "+u.String())
		}
	}
	return metas, err
}
