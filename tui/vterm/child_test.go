package vterm

import "github.com/sentinelhq/sentinel/internal/norace"

// outsideRace are this package's CPU-heavy tests (the differential ones
// against x/vt, and the style-table bounds): in a test binary built with
// -race (the suite's command) they run in one child `go test` built
// without it (internal/norace). This package starts no goroutine of its
// own, so the detector finds nothing here; it only made these tests about
// seven times as slow, most of the package's CPU (issue 33: the suite in
// minutes on 2 cores). Every input is still compared on every run, and the
// random sample is the whole one, not the third a -race build drew.
var outsideRace = &norace.Child{
	What: "the vterm differential tests",
	Env:  "SENTINEL_VTERM_CHILD",
	Tests: []string{
		"TestRandomOutputMatchesXVT",
		"TestRecordedCodersMatchXVT",
		"TestTestLogMatchesXVT",
		"TestStyleTableStaysBounded",
		"TestSGRThatRebuildsTheStyleTableIsNotRemembered",
	},
}
