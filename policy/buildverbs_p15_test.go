package policy

import "testing"

// TestPantsAndDvcVerbs: Pants (a monorepo build system: its test, lint,
// fmt, check and package goals build and test the project as bazel's do)
// and DVC (a data project's pipeline: repro and exp run run the project's
// own stages, status, dag, metrics, params, plots and exp show print, pull
// and fetch download the declared data) are judged by verb class
// (buildverbs.go). Their publishing, pushing, garbage-collecting and
// checkout-forcing verbs are not in the table and ask. polcorp15's pants
// and dvc rows (a pants Makefile, khuyentran1401/cicd-mlops-demo,
// CS5446-BCKR/RLRS) all asked as unknown programs.
func TestPantsAndDvcVerbs(t *testing.T) {
	ctx := testEnv(t)
	on := ctx
	on.Sandboxed = true
	e := Default()
	for _, cmd := range []string{
		"pants fmt lint ::", "pants test ::", "pants check ::", "pants lint --only=ruff src::", "pants test src:tests -- -k parse",
		"pants list :: | head", "pants dependencies --transitive src:bin", "pants package src:bin",
		"dvc repro", "dvc repro train", "dvc exp run", "dvc status", "dvc dag", "dvc metrics show", "dvc metrics diff HEAD~1",
		"dvc params diff", "dvc exp show --no-pager | head -40", "dvc plots show --json | head", "dvc doctor", "dvc pull",
	} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: on}); v.Decision != Allow {
			t.Errorf("sandbox on: %q is %s by %s (%s), want allow", cmd, v.Decision, v.Rule, v.Reason)
		}
	}
	for _, cmd := range []string{
		"pants publish src:dist", "pants run src:deploy", "dvc push -r read-write", "dvc gc -w -f --cloud", "dvc checkout --force",
		"dvc remote add -d s3 s3://bucket", "dvc repro && rm -rf ~", "pants test :: --pants-config-files=/tmp/evil.toml",
	} {
		for _, c := range []Context{on, ctx} {
			if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: c}); v.Decision == Allow && !(c.Sandboxed && cmd == "pants run src:deploy") {
				t.Errorf("sandbox %v: %q allowed by %s (%s)", c.Sandboxed, cmd, v.Rule, v.Reason)
			}
		}
	}
}
