package scripts

import (
	"flag"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// What tmux knows of the window beyond its screen (its title, its bell
// flag) and signals to its program: the commands waitformat and signal
// (see commands).

func cmdWaitFormat(ts *testscript.TestScript, neg bool, args []string) {
	fs := flag.NewFlagSet("waitformat", flag.ContinueOnError)
	within := withinFlag(ts, fs)
	if err := fs.Parse(args); err != nil || fs.NArg() != 2 {
		ts.Fatalf("usage: waitformat [-within D] FORMAT REGEX")
	}
	w := windowOf(ts)
	format, re := fs.Arg(0), screenRegexp(ts, "waitformat", fs.Arg(1))
	deadline := time.Now().Add(within())
	for {
		seen := w.outSize()
		got := strings.TrimRight(w.cmd("display", "-p", "-t", "e2e", format), "\n")
		if re.MatchString(got) != neg {
			return
		}
		if time.Now().After(deadline) {
			verb := "never matched"
			if neg {
				verb = "still matches"
			}
			ts.Fatalf("%s = %q %s /%s/ within %v", format, got, verb, fs.Arg(1), within())
		}
		w.settle(seen) // the title and the bell come with the pane's output
	}
}

var signals = map[string]syscall.Signal{"TERM": syscall.SIGTERM, "HUP": syscall.SIGHUP, "INT": syscall.SIGINT}

func cmdSignal(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 || signals[args[0]] == 0 {
		ts.Fatalf("usage: signal TERM|HUP|INT")
	}
	w := windowOf(ts)
	kids := e2etest.ChildPIDs(strings.TrimSpace(w.cmd("display", "-p", "-t", "e2e", "#{pane_pid}")))
	if len(kids) != 1 {
		ts.Fatalf("signal: the pane runs %v; want the program alone", kids)
	}
	p, err := os.FindProcess(kids[0])
	if err == nil {
		err = p.Signal(signals[args[0]])
	}
	if err != nil {
		ts.Fatalf("signal %s to %d: %v", args[0], kids[0], err)
	}
	ts.Logf("sent SIG%s to %s", args[0], strconv.Itoa(kids[0]))
}
