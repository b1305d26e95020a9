package main

import "testing"

func TestSubBenchNamesTheInputOfEachLine(t *testing.T) {
	for field, want := range map[string]string{
		"BenchmarkIngestFullScreenCoder/claude-code-2 ": "claude-code",
		"BenchmarkIngestFullScreenCoder/test-log-16":    "test-log",
		"BenchmarkIngestFullScreenCoder/test-log":       "test-log",
		"BenchmarkCheckTypical-2":                       "",
	} {
		if got := subBench(field); got != want {
			t.Errorf("subBench(%q) = %q, want %q", field, got, want)
		}
	}
}
