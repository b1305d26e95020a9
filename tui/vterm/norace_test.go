//go:build !race

package vterm

// raceDetector: see race_test.go.
const raceDetector = false
