package runner

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/hostbin"
)

// TestSeedPackagesAreListedWhileTheSeedBuilds: the seed's package list
// (go list) needs only its module, so it runs beside the seed's go test
// and go vet, not after them, where the first verification waited for it
// (3 s at load 49). The stand-in go's test and vet exit only once list has
// started (or fail after a minute alone: a bound on a hang, not on speed);
// the seed is then signed with what list printed, and its list cache is
// not left in the seed.
func TestSeedPackagesAreListedWhileTheSeedBuilds(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a shell script stands in for go")
	}
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	bin, dir := t.TempDir(), t.TempDir()
	marks := filepath.Join(t.TempDir(), "marks")
	if err := os.Mkdir(marks, 0o700); err != nil {
		t.Fatal(err)
	}
	script := `#!/bin/sh
touch "` + marks + `/$1"
case "$1" in
list) printf 'fmt\ntesting\n'; exit 0 ;;
esac
mkdir -p "$GOCACHE/00" && echo "$1" >"$GOCACHE/00/$1-d"
i=0
while [ ! -e "` + marks + `/list" ]; do
	i=$((i+1))
	if [ $i -gt 600 ]; then echo "go $1 ran before go list started" >&2; exit 1; fi
	sleep 0.1
done
`
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hostbin.SetPersonPATHForTest(bin + string(os.PathListSeparator) + os.Getenv("PATH")))
	if err := buildSeed(context.Background(), dir, "go version test", seedTiers[0], nil); err != nil {
		t.Fatalf("the seed's packages were listed after its build: %v", err)
	}
	s, err := readSeed(dir, "go version test")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(s.manifest.Packages, " ") != "fmt testing" {
		t.Fatalf("the seed holds %q, want what go list printed", s.manifest.Packages)
	}
	if _, err := os.Stat(filepath.Join(dir, "list-cache")); err == nil {
		t.Fatal("the list's go cache was left in the seed")
	}
}
