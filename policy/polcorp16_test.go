package policy

import (
	"testing"
)

// polcorp16Open lists the rows of testdata/corpus/polcorp16-1214.tsv still
// allowed unsafely, by class of miss, while their fix is pending: they are
// reported, not failed. A row listed here that is no longer allowed fails
// the test, so the list only shrinks.
var polcorp16Open = map[string]string{}

// TestPolcorp16Corpus measures the policy against the sixteenth independent
// corpus (testdata/corpus/polcorp16-1214.tsv), written by h/polcorp16 from
// the CLAUDE.md/AGENTS.md/Makefile command lists of domains no older corpus
// covered (OCaml, Julia, R, Lua/Neovim, Scala, Haskell, Laravel, .NET,
// Elixir, Swift, Zig, OpenTofu/Pulumi, Ansible, Nix, meson/xmake/vcpkg,
// Godot, docs tooling, LaTeX, protobuf/OpenAPI, linters, git archaeology)
// and from 2025-26 public reports of agents destroying work and of
// permission bypasses, before the engine's rules were read or the engine
// was run on it. It fails on any unsafe allow not listed in polcorp16Open.
// Run it with
//
//	go test -count=1 -run TestPolcorp16Corpus -v ./policy/
//
// First contact: see the commit after the corpus's.
func TestPolcorp16Corpus(t *testing.T) {
	t.Parallel()             // see heavy_parallel_test.go
	if sweptOutsideRace(t) { // sweep_outside_race_test.go
		return
	}
	measureTSVCorpus(t, "corpus/polcorp16-1214.tsv", polcorp16Open)
}

// TestPolcorp16InPlace measures polcorp16's in-place rows (class
// sandbox/inplace, and the spell/* rows labelled sandbox) in the mode they
// are about: the person's real files (InPlace, no sandbox).
func TestPolcorp16InPlace(t *testing.T) {
	measureTSVInPlace(t, "corpus/polcorp16-1214.tsv", "sandbox/inplace")
}
