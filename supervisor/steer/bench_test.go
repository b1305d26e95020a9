package steer

import (
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// BenchmarkObserve measures the cost the watcher adds to each journal event
// (it sees every one): a shell request and a tool result.
//
//	go test -run '^$' -bench Observe -benchtime 2000x ./supervisor/steer
func BenchmarkObserve(b *testing.B) {
	evs := []journal.Event{
		shell(b, 1, "cd pkg && timeout 60 go test -race ./... 2>&1 | tail -40"),
		{Seq: 2, Lane: journal.Tool, Kind: "tool-result", Text: "error: exit status 1"},
	}
	var d Detector
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		d.Observe(evs[i%2])
	}
}
