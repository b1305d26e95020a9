package main

import (
	"fmt"
	"io"

	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// writeAwaiting counts the runs whose change waits for the person's review
// as waiting for them (no request of theirs is pending, but the person is
// what they wait for), and says how to review each.
func writeAwaiting(w io.Writer, runs []queue.RunStatus) {
	n, pending := 0, 0
	for _, r := range runs {
		pending += r.Pending
		if queue.WaitsForPerson(r.State) {
			n++
		}
	}
	if n == 0 {
		return
	}
	fmt.Fprintf(w, "%d waiting for you (%d request(s), %d run(s) awaiting review):\n", n+pending, pending, n)
	for _, r := range runs {
		switch {
		case queue.AwaitsPerson(r.State):
			fmt.Fprintf(w, "  sentinel review %s   (in %s)\n", textsafe.Line(r.Run), textsafe.Line(r.Project))
		case r.State == queue.StateReviewing:
			fmt.Fprintf(w, "  run %s: its review is open on its own screen   (in %s)\n", textsafe.Line(r.Run), textsafe.Line(r.Project))
		}
	}
}

// writeFlagged names, under each run that flagged lines the person must
// read (an mcp session's DANGEROUS lines), those lines.
func writeFlagged(w io.Writer, runs []queue.RunStatus) {
	for _, r := range runs {
		if len(r.Flagged) == 0 {
			continue
		}
		fmt.Fprintf(w, "%s (%s, in %s) flagged %d line(s) to read before you use the folder:\n", textsafe.Line(r.Run), textsafe.Line(r.Coder), textsafe.Line(r.Project), len(r.Flagged))
		for _, l := range r.Flagged {
			fmt.Fprintln(w, "  "+textsafe.Line(l))
		}
	}
}
