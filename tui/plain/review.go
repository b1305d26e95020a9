package plain

import (
	"fmt"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner"
)

// Review asks the person at the terminal to land or reject the coder's
// change: the changed files (those that run code later first, flagged), the
// verification results, then y / n. Partial acceptance needs the TUI.
func (pr *Prompter) Review(req *runner.ReviewRequest) {
	if pr.Printer != nil {
		pr.Printer.mu.Lock()
		defer pr.Printer.mu.Unlock()
		pr.Printer.w.Flush()
	}
	out := pr.Out
	fmt.Fprintf(out, "\n┌─ review: %d file(s) changed\n", len(req.Files))
	for _, f := range req.Files {
		flag := ""
		if f.Flagged {
			flag = "  ⚠ " + textsafe.Line(f.FlagReason)
		}
		kind := string(f.Status)
		if f.Binary {
			kind += ", binary"
		}
		fmt.Fprintf(out, "│ %-9s %s  +%d -%d%s\n", kind, Visible(f.Path), f.Adds, f.Dels, flag)
	}
	if len(req.Checks) == 0 {
		fmt.Fprintln(out, "│ no verification checks ran")
	}
	for _, c := range req.Checks {
		word := "passed"
		if !c.Passed() {
			word = fmt.Sprintf("FAILED (exit %d)", c.ExitCode)
		}
		fmt.Fprintf(out, "│ check %s: %s in %s\n", textsafe.Line(c.Command), word, time.Duration(c.DurationMS)*time.Millisecond)
	}
	// sentinel review cannot open a run that is still running: the patch is
	// printed here on p instead
	patchLines := strings.Split(strings.TrimSuffix(string(req.Patch), "\n"), "\n")
	fmt.Fprintf(out, "│ p prints the whole patch here (%d line(s))\n", len(patchLines))
	for {
		fmt.Fprint(out, "└─ land it? [y]es / [n]o / [p]rint the patch: ")
		line, err := pr.reader.ReadString('\n')
		if err != nil {
			req.Answer <- runner.ReviewAnswer{Approve: false, Reason: "the person's terminal closed"}
			return
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "p":
			for _, l := range patchLines {
				fmt.Fprintln(out, "│ "+Visible(l))
			}
		case "y", "yes":
			req.Answer <- runner.ReviewAnswer{Approve: true}
			return
		case "n", "no":
			fmt.Fprint(out, "   why (Enter for no reason): ")
			reason, _ := pr.reader.ReadString('\n')
			req.Answer <- runner.ReviewAnswer{Approve: false, Reason: strings.TrimSpace(reason)}
			return
		}
	}
}
