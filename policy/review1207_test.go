package policy

import "testing"

// review1207Open lists the corpus rows still allowed unsafely, by class,
// while their fix is pending: they are reported, not failed. A row listed
// here that is no longer allowed fails the test, so the list only shrinks.
var review1207Open = map[string]string{}

// TestReview1207Corpus measures the policy against the independent corpus of
// 2026-12-06 (testdata/review1207.tsv: public bypass reports and everyday
// agent commands, each row naming its source, written before the engine ran
// on it). It prints, per class and with the sandbox on and off, the share of
// everyday rows allowed, the unsafe allows and the deny recall, and fails on
// any unsafe allow: an ask or deny row allowed in either mode, or a sandbox
// row allowed with the sandbox off.
//
// Engine of 0bef45a: everyday 100% on / 82% off; unsafe allows 17 on / 16
// off (all 21 in the probe class: yq's table and language, jq -f, inline
// process["env"], case on a secret, git in a repository the coder made);
// deny recall 87.9% (every miss asks). After the fixes: 0 unsafe allows,
// everyday and deny recall unchanged. h/polrev2 (fd -x judged, a secret's
// value echoed into a file, git push to a place the line names, database
// wipes): deny recall 91.9% on and off, everyday unchanged. h/pol (one
// wrapper table, operators on $HOME, shells fed from input, decoded code,
// substituted command words, secrets to any sink, editors, set-url): deny
// recall 99.3% on and off (the one miss asks: {curl,-sT,…}), everyday and
// unsafe allows unchanged. Run it with
//
//	go test -run TestReview1207Corpus -v ./policy/
func TestReview1207Corpus(t *testing.T) {
	t.Parallel()             // see heavy_parallel_test.go
	if sweptOutsideRace(t) { // sweep_outside_race_test.go
		return
	}
	measureTSVCorpus(t, "review1207.tsv", review1207Open)
}
