package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner"
)

// reviewProgress prints, as sentinel review re-verifies a change, which
// check runs, how long it has run and the last line it printed, then each
// result (a failed check with the end of its output): the person never
// watches a blank screen. The check runs the coder's code, so every line
// it printed is passed through textsafe.
func reviewProgress(w io.Writer) func(journal.Lane, journal.Kind, string, any) {
	var mu sync.Mutex
	return func(_ journal.Lane, kind journal.Kind, text string, data any) {
		mu.Lock()
		defer mu.Unlock()
		switch kind {
		case runner.KindVerifyStart:
			if c, ok := data.(runner.Check); ok {
				fmt.Fprintf(w, "verifying on a clean copy: %s\n", textsafe.Line(c.Command))
			}
		case runner.KindVerifyProgress:
			if p, ok := data.(runner.CheckProgress); ok {
				line := fmt.Sprintf("  %s: %s", textsafe.Line(p.Command), p.Elapsed().Round(time.Second))
				if p.LastLine != "" {
					line += " — " + textsafe.Line(p.LastLine)
				}
				fmt.Fprintln(w, line)
			}
		case runner.KindVerify:
			fmt.Fprintln(w, "  "+textsafe.Line(text))
			if c, ok := data.(runner.CheckResult); ok && !c.Passed() {
				for _, l := range lastN(c.Tail, 10) {
					fmt.Fprintln(w, "    | "+textsafe.Line(l))
				}
			}
		case runner.KindVerifyResult:
			fmt.Fprintln(w, textsafe.Line(text))
		}
	}
}

// lastN is the last n lines of s.
func lastN(s string, n int) []string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	if len(lines) == 1 && lines[0] == "" {
		return nil
	}
	return lines
}
