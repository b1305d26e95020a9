package mcpserver

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// A command that makes a file that runs code later (a new .husky hook,
// a CI workflow) or commits that carry one (gitstore_carry.go) is named
// in the tool's answer, but that answer goes to the client, and a hostile
// client never shows it to the person (h/ipatk8). So each such line is
// also told where the person reads without the client: the server's
// standard error (an MCP client logs it, a terminal shows it), and the
// audit journal's system lane as a DANGEROUS line (`sentinel show
// AUDIT`), as an in-place run's end report tells its DANGEROUS lines; and
// the server's end repeats them all in one summary.

// KindDanger is a line the person must read, in the audit's system lane
// (a file that runs code later a command made or its commits carry).
const KindDanger journal.Kind = "mcp-danger"

// KindWrote is a line naming what a writing call changed, in the audit's
// system lane (callwrote.go).
const KindWrote journal.Kind = "mcp-wrote"

// dangerPrefix starts every such line, as in an in-place run's report.
const dangerPrefix = "DANGEROUS: "

// maxToldKept bounds the lines kept for the end-of-session summary.
const maxToldKept = 200

// personTeller tells the person directly and keeps what it told.
type personTeller struct {
	mu   sync.Mutex
	warn io.Writer
	j    func() *audit
	told []string
	more int
	also func(line string) // Options.Danger: the run record the service shows (cmd/sentinel)
}

func newPersonTeller(warn io.Writer, j func() *audit) *personTeller {
	if warn == nil {
		warn = os.Stderr
	}
	return &personTeller{warn: warn, j: j}
}

// tell writes each line to standard error and the audit's system lane,
// and keeps it for the summary.
func (t *personTeller) tell(what string, lines []string) {
	if t == nil || len(lines) == 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, l := range lines {
		l = textsafe.Line(dangerPrefix + l + " (" + what + ")")
		fmt.Fprintln(t.warn, "sentinel mcp: "+l)
		if a := t.j(); a != nil {
			if _, err := a.j.Append(journal.System, KindDanger, l, nil); err != nil {
				fmt.Fprintln(t.warn, "sentinel mcp: the audit journal failed to keep the line above: "+err.Error())
			}
		}
		if t.also != nil {
			t.also(l)
		}
		if len(t.told) < maxToldKept {
			t.told = append(t.told, l)
		} else {
			t.more++
		}
	}
}

// wrote writes each line, what a call changed, to standard error and the
// audit's system lane; not DANGEROUS, so not in the summary.
func (t *personTeller) wrote(what string, lines []string) {
	if t == nil || len(lines) == 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, l := range lines {
		l = textsafe.Line(l + " (" + what + ")")
		fmt.Fprintln(t.warn, "sentinel mcp: "+l)
		if a := t.j(); a != nil {
			if _, err := a.j.Append(journal.System, KindWrote, l, nil); err != nil {
				fmt.Fprintln(t.warn, "sentinel mcp: the audit journal failed to keep the line above: "+err.Error())
			}
		}
	}
}

// summary is the end-of-session lines ("" when nothing was told).
func (t *personTeller) summary() string {
	if t == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.told) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "sentinel mcp: this session's commands left %d thing(s) that run code later on this machine; look at each before you use the folder, build, check out or push:\n", len(t.told)+t.more)
	for _, l := range t.told {
		b.WriteString("  " + l + "\n")
	}
	if t.more > 0 {
		fmt.Fprintf(&b, "  and %d more (the audit journal's %s lines)\n", t.more, KindDanger)
	}
	return b.String()
}

// end tells the summary on standard error and in the audit.
func (t *personTeller) end() {
	s := t.summary()
	if s == "" {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprint(t.warn, s)
	if a := t.j(); a != nil {
		_, _ = a.j.Append(journal.System, KindDanger, textsafe.Line(strings.TrimSpace(strings.SplitN(s, "\n", 2)[0])), nil)
	}
}
