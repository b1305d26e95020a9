package tui

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner"
	"github.com/sentinelhq/sentinel/tui/plain"
)

// Every kind a run journals (runner.EventKinds, which a test in runner
// holds complete) has a reader in the TUI and in --plain: an event of it
// is shown, its text in a pane (a progress tick on the busy line) and in
// the printed lines. A view that drops
// a kind, or a kind added to the table that a view hides, fails here.
func TestEveryRunKindHasAReaderInEveryView(t *testing.T) {
	s := NewReplay(testInfo(), nil)
	_, m := newLive(s, Options{}, func([]byte) {})
	defer m.close()
	for i, e := range runner.EventKinds {
		ev := journal.Event{Seq: int64(i + 1), Time: time.Now(), Run: "r-table", Lane: e.Lane, Kind: e.Kind,
			Text: "table-event-" + strconv.Itoa(i) + " " + string(e.Kind)}
		if e.Payload != nil {
			b, err := json.Marshal(e.Payload)
			if err != nil {
				t.Fatal(err)
			}
			ev.Data = b
		}
		m.busy = nil
		m.ingestOne(ev)
		if !paneHas(m, ev.Text) && m.busy == nil { // a progress tick shows on the busy line
			t.Errorf("%s/%s: the TUI shows nothing of it", e.Lane, e.Kind)
		}
		var out bytes.Buffer
		p := plain.NewPrinter(&out, nil)
		p.Print(ev)
		p.Flush()
		if !strings.Contains(out.String(), ev.Text) {
			t.Errorf("%s/%s: --plain prints no line of it: %q", e.Lane, e.Kind, out.String())
		}
	}
}

// paneHas says some pane of m holds a line with text.
func paneHas(m *model, text string) bool {
	for _, p := range m.panes {
		if p == nil {
			continue
		}
		for i := 0; i < p.count(); i++ {
			if strings.Contains(p.lineAt(i).text, text) {
				return true
			}
		}
	}
	return false
}
