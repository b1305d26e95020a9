package policy

import "testing"

// TestPol4PublicCorpus measures testdata/pol4public.tsv: everyday shapes
// seen in public agent transcripts and issues (Claude Code, Codex, the
// Claude Code action), each row naming its thread, and the brief's
// neighbours that must stay asked or denied. Run it with
//
//	go test -run TestPol4PublicCorpus -v ./policy/
func TestPol4PublicCorpus(t *testing.T) {
	measureTSVCorpus(t, "pol4public.tsv", nil)
}
