package runner

import (
	"context"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// goToolRuns is a check's shell suffix for a go command: run with -x into
// a log, it prints which tools ran, counted: "N compile PKG" per package
// compiled and "N vet" for the vet runs (a vet.cfg names its package only
// inside the file). A failing go command prints its log and fails.
const goToolRuns = ` -x ./... >go-x.log 2>&1 || { cat go-x.log; exit 1; }; ` +
	`sed -n 's/.*\/compile .* -p \([^ ]*\) .*/compile \1/p; s/.*\/vet .*vet\.cfg.*/vet/p' go-x.log | sort | uniq -c`

// TestAVerificationAfterTheSeedBuildsNoStandardPackage: the seed holds
// what a verification's go test and go vet need of the standard library,
// under the action IDs the verification's own go command asks for (its
// sandbox's environment, flags and toolchain): once the seed is built, a
// verification of a project importing strings and testing compiles only
// the project's package and its test main, and vets only the project's
// package — no standard package is compiled or vetted again. (Seen to
// fail with GOAMD64=v2 added to the seed build's environment: every
// standard package compiled again and 73 vet runs, in go test and go vet.)
func TestAVerificationAfterTheSeedBuildsNoStandardPackage(t *testing.T) {
	servedCoreSeed(t) // built as Sentinel builds it, once per test process
	p, snap := goProject(t, "example.com/reuse", `package m

import (
	"strings"
	"testing"
)

func TestTwo(t *testing.T) {
	if strings.Repeat("x", Two()) != "xx" {
		t.Fatal("Two")
	}
}
`)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute) // a hang bound
	defer cancel()
	v := Verifier{Project: p, Snapshot: snap, RunID: "reuse", RunDir: t.TempDir(),
		Checks: []Check{{Command: "go test -count=1" + goToolRuns}, {Command: "go vet" + goToolRuns}}}
	res, err := v.Verify(ctx, filepath.Join(t.TempDir(), "none.diff"))
	if err != nil || len(res) != 2 {
		t.Fatalf("verification: %v\n%+v", err, res)
	}
	line := regexp.MustCompile(`^\s*(\d+) (compile (\S+)|vet)$`)
	for _, r := range res {
		vets := 0
		for _, l := range strings.Split(strings.TrimSpace(r.Tail), "\n") {
			m := line.FindStringSubmatch(l)
			switch {
			case m == nil:
				t.Errorf("%s printed %q", r.Check.Command, l)
			case m[2] == "vet":
				vets, _ = strconv.Atoi(m[1])
			case m[3] != "example.com/reuse" && m[3] != "main":
				t.Errorf("%s compiled the standard package %s: the seed did not hold it under the verification's action ID", r.Check.Command, m[3])
			}
		}
		if vets > 1 {
			t.Errorf("%s ran vet %d times for a one-package project: the seed did not hold the standard library's vet facts under the verification's action IDs", r.Check.Command, vets)
		}
	}
	if t.Failed() {
		t.Logf("go test: %s\ngo vet: %s", res[0].Tail, res[1].Tail)
	}
}
