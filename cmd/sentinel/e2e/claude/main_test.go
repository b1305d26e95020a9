package claude

import (
	"flag"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

func TestMain(m *testing.M) { e2etest.Main(m, nil, nil) }

// Without -parallel, an end-to-end package runs ParallelPerCore tests per
// core at once: its tests wait on the CLIs they start, and one per core
// (Go's default) left the cores idle while the rest queued.
func TestWaitingTestsRunManyAtOnce(t *testing.T) {
	for _, a := range os.Args[1:] {
		if strings.HasPrefix(strings.TrimLeft(a, "-"), "test.parallel") {
			t.Skip("-parallel was given")
		}
	}
	want := strconv.Itoa(e2etest.ParallelPerCore * runtime.GOMAXPROCS(0))
	if got := flag.Lookup("test.parallel").Value.String(); got != want {
		t.Fatalf("-test.parallel = %s, want %s (e2etest.Main)", got, want)
	}
}
