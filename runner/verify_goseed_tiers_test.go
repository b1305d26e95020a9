package runner

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/poll"
)

// The first verification of a small project waits for the core seed only,
// and nothing builds the full one for it. A project whose imports are not
// known waits for the full seed, built from the core one.
func TestASmallProjectTakesTheCoreSeedWithoutWaitingForTheFull(t *testing.T) {
	release := make(chan struct{})
	fullFrom := make(chan *goSeedDir, 1)
	fakeSeedTiers(t, func(tier seedTier, from *goSeedDir) {
		if tier.name == "" { // the full seed: built only once released
			fullFrom <- from
			<-release
		}
	})
	root, ok := seedRoot()
	if !ok {
		t.Skip("no user cache dir")
	}
	got := make(chan string, 1)
	go func() {
		c, err := privateGoCache(context.Background(), t.TempDir(), true, []string{"testing"}, nil)
		if err != nil {
			t.Error(err)
		}
		b, _ := os.ReadFile(filepath.Join(c, "00", "a-d"))
		got <- string(b)
	}()
	hang := time.After(time.Minute) // a bound on a hang, not a timing
	select {
	case s := <-got:
		if s != "compiledcore" {
			t.Fatalf("a project importing only testing got the seed %q, want the core one", s)
		}
	case <-hang:
		t.Fatal("a project importing only testing waited for the full seed")
	}
	// Nothing builds the full seed for it: its flight ends after the core.
	poll.Must(t, time.Minute, "the core seed's flight ended", noSeedFlights) // a hang bound
	select {
	case <-fullFrom:
		t.Fatal("the full seed was built for a project the core seed holds")
	default:
	}
	unknown := make(chan string, 1)
	go func() {
		c, err := privateGoCache(context.Background(), t.TempDir(), true, nil, nil)
		if err != nil {
			t.Error(err)
		}
		b, _ := os.ReadFile(filepath.Join(c, "00", "a-d"))
		unknown <- string(b)
	}()
	select {
	case from := <-fullFrom:
		if from == nil || filepath.Base(from.dir) != filepath.Base(mustSeedDir(t, root, seedTiers[0])) {
			t.Fatalf("the full seed was not built from the core one: %+v", from)
		}
	case <-hang:
		t.Fatal("the full seed was never built for a project that needs it")
	}
	close(release)
	select {
	case s := <-unknown:
		if s != "compiled" {
			t.Fatalf("a project whose imports are not known got the seed %q, want the full one", s)
		}
	case <-hang:
		t.Fatal("the full seed never came")
	}
}

func mustSeedDir(t *testing.T, root string, tier seedTier) string {
	t.Helper()
	dir, _, err := seedDirOf(context.Background(), root, tier)
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// A full seed already on disk is used at once, not after a core seed that
// is missing is built.
func TestAKeptFullSeedIsNotHeldUpByAMissingCoreSeed(t *testing.T) {
	never := make(chan struct{})
	defer close(never) // at the end, so the build under way ends
	fakeSeedTiers(t, func(tier seedTier, _ *goSeedDir) {
		if tier.name != "" {
			<-never // the core seed does not finish while the test looks
		}
	})
	root, _ := seedRoot()
	if _, err := goSeed(context.Background(), root); err != nil { // kept from an earlier version
		t.Fatal(err)
	}
	done := make(chan string, 1)
	go func() {
		c, _ := privateGoCache(context.Background(), t.TempDir(), true, []string{"testing"}, nil)
		b, _ := os.ReadFile(filepath.Join(c, "00", "a-d"))
		done <- string(b)
	}()
	select {
	case s := <-done:
		if s != "compiled" {
			t.Fatalf("got the seed %q, want the kept full one", s)
		}
	case <-time.After(time.Minute): // a hang bound
		t.Fatal("the verification waited for the missing core seed although the full one was kept")
	}
}

// stdImports reads import lines only: the standard packages of a small
// project, tests included; nil (wait for the full seed) when a third-party,
// cgo or vendored import, or a file that does not parse, leaves it unknown.
func TestStdImportsAreReadFromImportLines(t *testing.T) {
	t.Parallel()
	write := func(dir, name, body string) {
		t.Helper()
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o700)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	project := func() string {
		dir := t.TempDir()
		write(dir, "go.mod", "module example.com/greet\n\ngo 1.22\n")
		write(dir, "greet.go", "package greet\n\nimport \"strings\"\n\nfunc Shout(s string) string { return strings.ToUpper(s) }\n")
		write(dir, "greet_test.go", "package greet\n\nimport (\n\t\"testing\"\n\t\"example.com/greet/inner\"\n)\n\nfunc TestX(t *testing.T) { _ = inner.X }\n")
		write(dir, "inner/inner.go", "package inner\n\nimport \"fmt\"\n\nvar X = fmt.Sprint\n")
		write(dir, "testdata/skip.go", "package skip\n\nimport \"net/http\"\n")
		return dir
	}
	if got := stdImports(project()); !slices.Equal(got, []string{"fmt", "strings", "testing"}) {
		t.Fatalf("stdImports = %v, want [fmt strings testing]", got)
	}
	for name, body := range map[string]string{
		"third.go":  "package greet\n\nimport \"github.com/x/y\"\n",
		"cgo.go":    "package greet\n\nimport \"C\"\n",
		"broken.go": "package greet\n\nimport (\n",
	} {
		dir := project()
		write(dir, name, body)
		if got := stdImports(dir); got != nil {
			t.Errorf("with %s: stdImports = %v, want nil (not known)", name, got)
		}
	}
	dir := project()
	write(dir, "vendor/modules.txt", "")
	if got := stdImports(dir); got != nil {
		t.Errorf("with a vendor directory: stdImports = %v, want nil", got)
	}
}

// TestSeedGoTestAndGoVetRunSideBySide: the seed's go test and go vet share
// nothing but compiled packages, so the second does not wait for the
// first. The stand-in go here exits only once both have started (or fails
// after a minute alone: a bound on a hang, not on speed).
func TestSeedGoTestAndGoVetRunSideBySide(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("a shell script stands in for go")
	}
	dir := t.TempDir()
	marks := filepath.Join(dir, "marks")
	if err := os.Mkdir(marks, 0o700); err != nil {
		t.Fatal(err)
	}
	goBin := filepath.Join(dir, "go")
	script := `#!/bin/sh
touch "$MARKS/$1"
i=0
while [ ! -e "$MARKS/test" ] || [ ! -e "$MARKS/vet" ]; do
	i=$((i+1))
	if [ $i -gt 600 ]; then echo "go $1 ran alone" >&2; exit 1; fi
	sleep 0.1
done
`
	if err := os.WriteFile(goBin, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "MARKS=" + marks}
	if err := seedGoRuns(context.Background(), goBin, dir, env); err != nil {
		t.Fatalf("the seed's go commands ran one after the other: %v", err)
	}
}
