package policy

import (
	"testing"
)

// polcorp11Open lists the rows of testdata/corpus/polcorp11-1209.tsv still
// allowed unsafely, by class of miss, while their fix is pending: they are
// reported, not failed. A row listed here that is no longer allowed fails
// the test, so the list only shrinks.
var polcorp11Open = map[string]string{
	`git branch -D feat/old`:     `P11-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp11InPlace`,
	`rm -rf app/models/concerns`: `P11-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp11InPlace`,
	`truncate -s 0 src/index.ts`: `P11-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp11InPlace`,
}

// TestPolcorp11Corpus measures the policy against the eleventh independent
// corpus (testdata/corpus/polcorp11-1209.tsv), written by h/polcorp11 from
// public AGENTS.md/CLAUDE.md files, Makefiles, CI workflows, agent issue
// threads and public write-ups of attacks on coding agents before the
// engine's rules were read or the engine was run on it. It reports per class
// with the sandbox on and off and fails on any unsafe allow not listed in
// polcorp11Open. Run it with
//
//	go test -count=1 -run TestPolcorp11Corpus -v ./policy/
//
// First contact (2026-12-07, engine at main e4d2e701, before any polcorp11
// fix; the corpus as committed in 4b965998), same command:
//
//	1,492 rows: 720 allow, 98 sandbox, 179 ask, 495 deny (589 spell/*).
//	everyday allowed: 98.5% sandbox on, 91.4% off; unsafe allows: 0 on, 3 off;
//	deny recall: 98.0% on, 98.0% off.
//	Per ecosystem, allowed on/off of rows: go 50/48 of 50, rust 33/33 of 33,
//	python 71/62 of 71, node 53/39 of 55, java 40/39 of 40, cpp 41/38 of 41,
//	ruby 40/40 of 40, php 42/42 of 42, dotnet 30/29 of 30, elixir 30/30 of
//	31, swift 23/23 of 23, deno 23/21 of 23, bun 17/15 of 17, readonly 88/87
//	of 92, localhost 35/32 of 38, git 71/59 of 71, files 22/21 of 23.
//	Unsafe off: 3 in-place rows of the disposable copy (P11-M: git branch -D,
//	rm -rf of a source directory, truncate -s 0 of a source file); in place
//	none is allowed (TestPolcorp11InPlace: 0 of 54 without a checkpoint).
//	Everyday asks on: tsx (a TypeScript runner) unknown; curl to localhost
//	with --retry/--retry-connrefused asked as a network tool; zsh -lc 'git
//	status --short' (Codex's macOS idiom) asked as zsh; less -N asked as
//	interactive; and 3 rows the corpus had wrong (an awk program in double
//	quotes, so $3 was the shell's; timeout 600 MIX_ENV=test mix …, which runs a
//	program named MIX_ENV=test), fixed in the corpus after this run.
//	Deny recall misses (asked): make -f - reading a recipe piped from printf
//	(7 spellings), npx -y https://…/pkg.tgz, heroku pg:reset, opencode run
//	--dangerously-skip-permissions.
//
// After the polcorp11 fixes (h/polcorp11, same command):
//
//	everyday allowed: 99.7% sandbox on, 92.4% off; unsafe allows: 0 on, 3 off
//	(the P11-M disposable copy; in place none is allowed); deny recall: 99.8%
//	on and off. Every ecosystem 100% on but readonly 90/92 (less -N asks:
//	the project's decision, TestEverydayReadsOfAgents); off: go 48, rust 33,
//	python 62/71, node 39/55, java 39, cpp 38, ruby 40, php 42, dotnet 29,
//	elixir 31, swift 23, deno 21, bun 15, readonly 89, localhost 35, git
//	59/71, files 22 (off asks are the sandbox-off decision: npx, gh, fetch).
//	Classes fixed: other agents' bypass flags (agentcli_more.go); curl's
//	quiet options on a loopback read (curlloopbackopts.go); TypeScript
//	loader runners as node (tsrunners.go); zsh -c payloads bash reads alike
//	(zshplain.go); makefiles from a stream or process substitution the line
//	spells (makefeed.go); hosted database resets and the hosting CLIs no
//	handler named (cloudresets.go); perl q{…} strings and $ENV{…} in
//	system() (perlquote.go). Left: npx -y URL asks (not denied).
//	Other corpora, same engine: deny recall polcorp9 98.0 -> 98.7%,
//	polcorp10 98.8 -> 99.1%, polcorp6 98.3 -> 98.5%; no everyday or unsafe
//	change in polcorp4..10.
func TestPolcorp11Corpus(t *testing.T) {
	t.Parallel()             // see heavy_parallel_test.go
	if sweptOutsideRace(t) { // sweep_outside_race_test.go
		return
	}
	measureTSVCorpus(t, "corpus/polcorp11-1209.tsv", polcorp11Open)
}

// TestPolcorp11InPlace measures polcorp11's in-place rows (class
// sandbox/inplace, and the spell/* rows labelled sandbox, which spell git
// clean -fdx) in the mode they are about: the person's real files (InPlace,
// no sandbox).
func TestPolcorp11InPlace(t *testing.T) {
	measureTSVInPlace(t, "corpus/polcorp11-1209.tsv", "sandbox/inplace")
}
