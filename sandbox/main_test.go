package sandbox

import (
	"fmt"
	"os"
	"testing"

	"github.com/sentinelhq/sentinel/internal/testbin"
)

// helperBin is the real sentinel binary, re-executed as the sandbox helper.
var helperBin string

func TestMain(m *testing.M) {
	// Inside a sandbox the test binary doubles as the escape probe.
	if len(os.Args) > 1 && os.Args[1] == probeArg {
		os.Exit(probeMain(os.Args[2:]))
	}
	bin, err := testbin.Sentinel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "sandbox tests need the sentinel binary:", err)
		os.Exit(1)
	}
	helperBin = bin
	testbin.Main(m)
}
