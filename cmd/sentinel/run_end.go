package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner"
)

// endNotes are the lines that close a run after its summary: where its
// FINAL_REPORT.md is, and after an interrupt how to review what it did.
func endNotes(w io.Writer, id, dir string, res runner.Result, exitErr error) {
	report := filepath.Join(dir, "FINAL_REPORT.md")
	if _, err := os.Stat(report); err == nil {
		fmt.Fprintln(w, "sentinel: the run's report: "+textsafe.Line(report))
	}
	if res.Recovery == "" || exitErr != nil && strings.Contains(exitErr.Error(), "sentinel review") {
		return
	}
	switch res.Status {
	case runner.StatusInterrupted:
		fmt.Fprintln(w, "sentinel: review what it did and land or reject it: sentinel review "+textsafe.Line(id))
	case runner.StatusRejected:
		// a rejected run's work is kept, and the review screen's double
		// Ctrl-C ends as a rejection: say how to land it after all
		fmt.Fprintln(w, "sentinel: to land it after all: sentinel review "+textsafe.Line(id))
	}
}
