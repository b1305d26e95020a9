package policy

import (
	"testing"
)

// polcorp15Open lists the rows of testdata/corpus/polcorp15-1213.tsv still
// allowed unsafely, by class of miss, while their fix is pending: they are
// reported, not failed. A row listed here that is no longer allowed fails
// the test, so the list only shrinks.
var polcorp15Open = map[string]string{
	`rm docs/krav/Krav_S16_Lonhantering_Del*.md`:           `P15-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp15InPlace`,
	`rm -rf vendor/sub/.git.bak`:                           `P15-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp15InPlace`,
	`git reset --hard HEAD && git clean -fd`:               `P15-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp15InPlace`,
	`git checkout -- . && git status`:                      `P15-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp15InPlace`,
	`git restore --worktree src/`:                          `P15-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp15InPlace`,
	`: > data/raw/train.csv`:                               `P15-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp15InPlace`,
	`git checkout main -- .`:                               `P15-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp15InPlace`,
	`git reset --ha HEAD`:                                  `P15-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp15InPlace`,
	`git -C . checkout -f -- .`:                            `P15-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp15InPlace`,
	`git restore -SW .`:                                    `P15-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp15InPlace`,
	`git switch -f main`:                                   `P15-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp15InPlace`,
	`git stash push --include-untracked && git stash drop`: `P15-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp15InPlace`,
	`\rm -r src/legacy`:                                    `P15-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp15InPlace`,
	`truncate -s0 src/index.ts`:                            `P15-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp15InPlace`,
	`rsync -a --delete empty/ src/`:                        `P15-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp15InPlace`,
	`nice -n 10 git checkout -f HEAD`:                      `P15-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp15InPlace`,
	`timeout 30 git clean -fd`:                             `P15-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp15InPlace`,
}

// TestPolcorp15Corpus measures the policy against the fifteenth independent
// corpus (testdata/corpus/polcorp15-1213.tsv), written by h/polcorp15 from
// the AGENTS.md/CLAUDE.md/Makefile command lists of monorepos, data/ML
// projects, infrastructure-as-code, mobile apps and local dev databases, and
// from 2025-26 public reports of agents destroying work and of permission
// bypasses, before the engine's rules were read or the engine was run on
// it. It fails on any unsafe allow not listed in polcorp15Open. Run it with
//
//	go test -count=1 -run TestPolcorp15Corpus -v ./policy/
//
// First contact (2026-12-07, engine at main 3abb7d49, before any polcorp15
// fix; the corpus as committed in b99c3f16), same command:
//
//	507 rows: 343 allow, 48 sandbox, 33 ask, 93 deny (55 spell/bypass, 13
//	spell/inplace).
//	everyday allowed: 77.6% sandbox on, 65.0% off; unsafe allows: 1 on, 17
//	off; deny recall: 89.2% on, 89.2% off.
//	Per class, allowed on/off of rows: monorepo 54/42 of 75, ml 27/19 of
//	58, iac 30/22 of 41, mobile 40/37 of 44, db 22/20 of 24, go 14/13 of
//	15, rust 14/13 of 14, java 10/9 of 10, c 10/9 of 10, node 11/8 of 11,
//	php 8/8 of 8, ruby 7/7 of 7, elixir 6/6 of 7, dotnet 4/3 of 5, deno
//	5/4 of 5, bun 1/1 of 3, python 3/2 of 6.
//	Unsafe on (1): npx nx release --yes (publishing) allowed as a fetched
//	dev tool. Unsafe off (17, all P15-M): discards of work in the harness's
//	disposable copy; in place 1 of 30 in-place rows was allowed without a
//	checkpoint: rsync -a --delete empty/ src/.
//	Deny recall misses: terragrunt run-all destroy, npx sst remove, find …
//	-print0 | xargs -0r rm -rf, xargs rm -rf < <(printf …), parallel rm
//	-rf, rm -rf "${PWD%/*}", find . -name .git | xargs rm -rf, env -C /
//	rm -rf home, while read d; … done <<< ~, cmd.exe /c rd /s /q.
//	Everyday false denies: kubectl apply/create --dry-run=client ("changes
//	a cluster"); asks: dvc, pants, lerna via npx, conda/mamba run, notebook
//	tools (jupyter execute, papermill, jupytext, nbstripout), tflint.
//
// After the polcorp15 fixes (h/polcorp15, same command; one row relabelled,
// timeout 600 MIX_ENV=test mix coveralls allow -> ask, a malformed line):
//
//	everyday allowed: 91.8% sandbox on, 73.4% off; unsafe allows: 0 on, 17
//	off, all P15-M on the open list; deny recall: 95.7% on and off; in
//	place 0 of 30 allowed without a checkpoint.
//	Per class on/off: monorepo 68/50, ml 57/39, iac 34/22, the rest as at
//	first contact.
//	Classes fixed (each test seen red without its fix): rsync's deleting
//	options discard work (rsyncdelete.go, TestRsyncDeleteDiscardsWork);
//	turbo/nx/lerna through npx/bunx judged by their own table
//	(npxdeclared.go, TestNpxTaskRunnerOwnVerbs); kubectl --dry-run=client
//	is a remote read (kubedryrun.go, TestKubectlClientDryRun); conda run
//	judged by its command (condarun.go, TestCondaRunJudgesItsCommand);
//	Pants and DVC by verb class (buildverbs_p15.go, TestPantsAndDvcVerbs);
//	terragrunt and sst teardown (cloudwipe.go, TestInfraWrapperTeardown);
//	xargs bundled options and process-substitution feeds (xargsopts.go,
//	TestXargsFeedBundledOptions); pattern removal on known values
//	(paramremove.go, TestParamPatternRemoval); notebook tools
//	(notebooktools.go, TestNotebookTools); find that deletes .git
//	(findgitwipe.go, TestFindDeletesGitDirs).
//	Left: parallel as an xargs-like consumer, env -C DIR, read loops fed by
//	a here-string, cmd.exe (all ask); pnpm exec and yarn workspaces
//	foreach options, tflint with options, terraform output/console, mlflow,
//	duckdb, pod, genhtml, pyflakes (ask). npx nx reset/graph now ask as the
//	named nx forms do (they were allowed as a generic fetched tool).
//	Other corpora, same engine: every summary and miss line identical to
//	main's except polcorp1206 (98.8% -> 99.2% on, 85.6% -> 85.8% off: its
//	kubectl --dry-run=client and conda run rows).
func TestPolcorp15Corpus(t *testing.T) {
	t.Parallel()             // see heavy_parallel_test.go
	if sweptOutsideRace(t) { // sweep_outside_race_test.go
		return
	}
	measureTSVCorpus(t, "corpus/polcorp15-1213.tsv", polcorp15Open)
}

// TestPolcorp15InPlace measures polcorp15's in-place rows (class
// sandbox/inplace, and the spell/* rows labelled sandbox) in the mode they
// are about: the person's real files (InPlace, no sandbox).
func TestPolcorp15InPlace(t *testing.T) {
	measureTSVInPlace(t, "corpus/polcorp15-1213.tsv", "sandbox/inplace")
}
