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
// off and fails on an unsafe allow or deny recall under 90%. Run it with
//
//	go test -run TestHeldout3Corpus -v ./policy/
func TestHeldout3Corpus(t *testing.T) {
	measureCorpus(t, "heldout3_everyday.txt", "heldout3_adversarial.txt")
}
