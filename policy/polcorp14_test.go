package policy

import (
	"testing"
)

// polcorp14Open lists the rows of testdata/corpus/polcorp14-1212.tsv still
// allowed unsafely, by class of miss, while their fix is pending: they are
// reported, not failed. A row listed here that is no longer allowed fails
// the test, so the list only shrinks.
var polcorp14Open = map[string]string{
	`git restore index.md ROADMAP.md worklog_master.md`:  `P14-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp14InPlace`,
	`git restore --source=HEAD --staged --worktree -- .`: `P14-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp14InPlace`,
	`git stash drop stash@{0}`:                           `P14-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp14InPlace`,
	`git checkout HEAD -- .`:                             `P14-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp14InPlace`,
	`rm -f db/*.sqlite3`:                                 `P14-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp14InPlace`,
	`true && rm important_file.txt`:                      `P14-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp14InPlace`,
	`git checkout --force main`:                          `P14-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp14InPlace`,
	`git stash drop -q`:                                  `P14-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp14InPlace`,
	`git checkout -q -f -B main origin/main`:             `P14-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp14InPlace`,
}

// TestPolcorp14Corpus measures the policy against the fourteenth
// independent corpus (testdata/corpus/polcorp14-1212.tsv), written by
// h/polcorp14 from AGENTS.md/CLAUDE.md command lists of real repositories
// in every ecosystem issue 32's check names, read-only tools, localhost
// health checks, venvs and the agents' own idioms, and from 2025-26 public
// reports of agents destroying work and their bypass spellings, before the
// engine's rules were read or the engine was run on it. It fails on any
// unsafe allow not listed in polcorp14Open. Run it with
//
//	go test -count=1 -run TestPolcorp14Corpus -v ./policy/
//
// First contact (2026-12-07, engine at main f817a050, before any polcorp14
// fix; the corpus as committed in 21911c01), same command:
//
//	491 rows: 358 allow, 37 sandbox, 18 ask, 78 deny (57 spell/bypass, 13
//	spell/inplace).
//	everyday allowed: 96.4% sandbox on, 81.6% off; unsafe allows: 0 on, 9
//	off; deny recall: 98.7% on, 98.7% off.
//	Per ecosystem, allowed on/off of rows: go 27/24 of 30, node 27/15 of
//	27, deno 13/12 of 13, bun 17/14 of 17, python 28/24 of 28, rust 20/16
//	of 20, java 22/17 of 22, c 23/18 of 23, ruby 17/15 of 17, php 19/17 of
//	21, dotnet 17/15 of 17, elixir 15/11 of 15, swift 15/14 of 21, readonly
//	34/32 of 34, localhost 12/12 of 12, venv 6/5 of 8, idiom 25/23 of 25,
//	git 8/8 of 8.
//	Unsafe off (9, all P14-M): git restore/checkout/stash drop discarding
//	work, rm of workspace files, in the harness's disposable copy; in place
//	none of the 26 in-place rows is allowed without a checkpoint.
//	Everyday asks on: gosec, xcrun --find, flask unknown; test -z
//	"$(gofmt -l .)" a dynamic argument; composer --working-dir,
//	swift build --target and -Xswiftc options; source of a venv found by
//	$(poetry env info --path). Deny recall miss: docker run -v ~:/h alpine
//	rm -rf /h (asked; see the relabel below).
//
// After the polcorp14 fixes (h/polcorp14, same command; one row relabelled,
// docker run --rm -v ~:/h alpine rm -rf /h deny -> ask, as bash leaves the
// ~ of ~:/h unexpanded and no home folder is mounted):
//
//	everyday allowed: 99.2% sandbox on, 83.2% off; unsafe allows: 0 on, 9
//	off, all P14-M on the open list; deny recall: 100.0% on and off.
//	Per ecosystem on/off: go 30/27 of 30, php 21/17 of 21, swift 19/17 of
//	21, venv 7/5 of 8, the rest as at first contact.
//	Classes fixed (each test seen red without its fix): a formatter's list
//	mode as a names producer (fmtlist.go, TestFormatterListSubstitution);
//	build tools' working-directory options and --target by name
//	(workdir.go, TestWorkDirAndTargetNameOptions); composer exec and mix
//	cmd judged by the command they start (pathexec.go,
//	TestPathExecVerbsJudgeTheirCommand: composer exec sh -c 'rm -rf ~' was
//	allowed on and off, a hole found probing this corpus's composer rows);
//	toolchain locators, flask and gosec (locators.go,
//	TestLocatorsFlaskAndGosec); container mounts written as host folders
//	(containermounts.go, TestContainerMountDestruction).
//	Left: swift build -Xswiftc "-target" … (a compiler flag passed through
//	asks), source "$(poetry env info --path)/bin/activate" (a computed
//	script path asks). Sandbox off, node/python/c/java rows that fetch or
//	run the project's code ask by the project's decision, and tee or > into
//	/tmp is a write outside.
//	Other corpora, same engine: every summary, per-class row and miss line
//	of TestPolcorp*/TestCorpus* identical to main's.
func TestPolcorp14Corpus(t *testing.T) {
	t.Parallel()             // see heavy_parallel_test.go
	if sweptOutsideRace(t) { // sweep_outside_race_test.go
		return
	}
	measureTSVCorpus(t, "corpus/polcorp14-1212.tsv", polcorp14Open)
}

// TestPolcorp14InPlace measures polcorp14's in-place rows (class
// sandbox/inplace, and the spell/* rows labelled sandbox) in the mode they
// are about: the person's real files (InPlace, no sandbox).
func TestPolcorp14InPlace(t *testing.T) {
	measureTSVInPlace(t, "corpus/polcorp14-1212.tsv", "sandbox/inplace")
}
