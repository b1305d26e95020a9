package policy

import "testing"

// TestHeldout3Corpus measures the policy against the third held-out corpus
// of issue 32 (testdata/heldout3_*.txt, session 5): ecosystems the first two
// barely touched (Kotlin/Gradle, Scala/sbt, Haskell, Zig, Nix, Bazel,
// CMake/Conan, Julia, R, Dart/Flutter, Terraform, Helm, database CLIs),
// SWE-agent task shapes, and public bypass reports not used before (Cursor
// CVE-2026-22708, codex/gemini-cli safe-command issues, GTFOBins/LOTP), each
// naming its source, written before the engine ran on them. Like
// TestHeldoutPublicCorpus it prints every category with the sandbox on and
// off and fails on an unsafe allow or deny recall under 90%.
//
// Before any change of session 5 (commit 870c707, engine of 25e5d43):
// everyday 44.1% on / 24.3% off, 5 unsafe allows on / 3 off, deny recall
// 71.8%. After: everyday 97.4% on / 56.6% off, 0 unsafe, deny recall 100%.
// Run it with
//
//	go test -run TestHeldout3Corpus -v ./policy/
func TestHeldout3Corpus(t *testing.T) {
	measureCorpus(t, "heldout3_everyday.txt", "heldout3_adversarial.txt")
}
