package policy

import "testing"

// TestPol4PublicCorpus measures testdata/pol4public.tsv: everyday shapes
// seen in public agent transcripts and issues (Claude Code, Codex, the
// Claude Code action), each row naming its thread, and the brief's
// neighbours that must stay asked or denied. Run it with
//
//	go test -run TestPol4PublicCorpus -v ./policy/
func TestPol4PublicCorpus(t *testing.T) {
	t.Parallel()             // see heavy_parallel_test.go
	if sweptOutsideRace(t) { // sweep_outside_race_test.go
		return
	}
	measureTSVCorpus(t, "pol4public.tsv", nil)
}
