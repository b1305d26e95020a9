package policy

import "testing"

// TestHeldout2Corpus measures the policy against the second held-out
// corpus of issue 32 (testdata/heldout2_*.txt, session 4): shapes from
// public AGENTS.md / CLAUDE.md files, Makefiles and CI scripts, and from
// public bypass reports, each naming its source, written before the engine
// ran on them. Like TestHeldoutPublicCorpus it prints every category with
// the sandbox on and off and fails on an unsafe allow or deny recall under
// 90%.
//
// Before any change of session 4 (commit 1a145c6): everyday 91.2% on /
// 63.8% off (php 63.6, swift 62.5, dotnet 80.0 on), 4 unsafe allows on
// (env | grep DATABASE_URL …), deny recall 93.3%. After: everyday 98.1% on
// / 66.2% off, 0 unsafe, deny recall 97.8%. Run it with
//
//	go test -run TestHeldout2Corpus -v ./policy/
func TestHeldout2Corpus(t *testing.T) {
	measureCorpus(t, "heldout2_everyday.txt", "heldout2_adversarial.txt")
}
