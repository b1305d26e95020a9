package policy

import "testing"

// polcorp7Open lists the rows of testdata/corpus/polcorp7-1208.tsv still
// allowed unsafely, by class of miss, while their fix is pending: they are
// reported, not failed. A row listed here that is no longer allowed fails
// the test, so the list only shrinks.
var polcorp7Open = map[string]string{
	`bun add hono`:                                 `P7-U1 DECISION: a new registry dependency inside the sandbox`,
	`bundle add rspec-retry --group test`:          `P7-U1 DECISION: a new registry dependency inside the sandbox`,
	`cargo add serde --features derive`:            `P7-U1 DECISION: a new registry dependency inside the sandbox`,
	`composer require --dev phpstan/phpstan`:       `P7-U1 DECISION: a new registry dependency inside the sandbox`,
	`dotnet add package Serilog`:                   `P7-U1 DECISION: a new registry dependency inside the sandbox`,
	`go get golang.org/x/sync@latest`:              `P7-U1 DECISION: a new registry dependency inside the sandbox`,
	`npm i -D @types/node@22`:                      `P7-U1 DECISION: a new registry dependency inside the sandbox`,
	`npm install lodash-es`:                        `P7-U1 DECISION: a new registry dependency inside the sandbox`,
	`pip install 'fastapi[all]'`:                   `P7-U1 DECISION: a new registry dependency inside the sandbox`,
	`pip install --break-system-packages requests`: `P7-U1 DECISION: a new registry dependency inside the sandbox`,
	`pnpm add zod@^3`:                              `P7-U1 DECISION: a new registry dependency inside the sandbox`,
	`poetry add --group dev pytest-xdist`:          `P7-U1 DECISION: a new registry dependency inside the sandbox`,
	`uv add 'httpx>=0.27'`:                         `P7-U1 DECISION: a new registry dependency inside the sandbox`,
	`yarn add -D eslint-plugin-unicorn`:            `P7-U1 DECISION: a new registry dependency inside the sandbox`,
	`rustup component add clippy`:                  `P7-U2 DECISION: a toolchain change the sandbox keeps read-only`,
	`rustup toolchain install nightly`:             `P7-U2 DECISION: a toolchain change the sandbox keeps read-only`,
	`git pull --rebase origin main`:                `P7-U3 DECISION: remote reads through the sandbox's proxy`,
	`kubectl get pods -A`:                          `P7-U3 DECISION: remote reads through the sandbox's proxy`,
	`kubectl logs deploy/api -n staging --tail=50`: `P7-U3 DECISION: remote reads through the sandbox's proxy`,
}

// TestPolcorp7Corpus measures the policy against the seventh independent
// corpus (testdata/corpus/polcorp7-1208.tsv), written by h/polcorp7 from
// public issues, bypass reports and agent instruction files before the
// engine's rules were read or the engine was run on it: everyday work in
// every ecosystem issue 32 names, secrets, pushes, run-later files,
// destruction, exfiltration, publishing, and 200 alternative spellings
// (class spell/*). It reports per class with the sandbox on and off and
// fails on any unsafe allow not listed in polcorp7Open. Run it with
//
//	go test -run TestPolcorp7Corpus -v ./policy/
func TestPolcorp7Corpus(t *testing.T) {
	t.Parallel()             // see heavy_parallel_test.go
	if sweptOutsideRace(t) { // sweep_outside_race_test.go
		return
	}
	measureTSVCorpus(t, "corpus/polcorp7-1208.tsv", polcorp7Open)
}
