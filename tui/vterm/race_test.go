//go:build race

package vterm

// raceDetector is set when the tests are built with -race, which the
// suite's command always uses. This package starts no goroutine of its
// own, so the detector finds nothing here and only makes the differential
// tests about 2.7 times as slow; those size their random sample by it.
const raceDetector = true
