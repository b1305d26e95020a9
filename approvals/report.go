package approvals

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// ReportedByCoder is the reported_by value the broker puts in the data of
// every report it journals: everything on its socket comes from inside the
// sandbox, so a report is the coder's word, never Sentinel's.
const ReportedByCoder = "coder"

// reportKinds are the kinds a report on the socket may have, by lane: what
// the agents' hooks (tool results, stops, notifications, other hook events)
// and the demo coder send. The system, approval, supervisor and adversary
// lanes speak for Sentinel; a report on them would be a forgery.
var reportKinds = map[journal.Lane][]string{
	journal.Tool:  {"tool-result", "result", "write", "edit"},
	journal.Coder: {"coder-stop", "notification", "hook"},
}

// reportEvent is a journaled report: the report as sent, marked as the
// coder's.
type reportEvent struct {
	Report
	ReportedBy string `json:"reported_by"`
}

// checkReport says why a report from the socket is refused, or nil.
func checkReport(r Report) error {
	kinds, ok := reportKinds[journal.Lane(r.Lane)]
	if !ok {
		return fmt.Errorf("report lane %q is not allowed (want coder or tool)", r.Lane)
	}
	if r.Kind == "" {
		return errors.New("a report needs a kind")
	}
	for _, k := range kinds {
		if k == r.Kind {
			return nil
		}
	}
	return fmt.Errorf("report kind %q is not allowed on lane %s (want one of %s)", r.Kind, r.Lane, strings.Join(kinds, ", "))
}

// record journals a report from the socket on its lane, marked as the
// coder's; a report on another lane or of another kind is refused and
// journaled as a rejected report.
func (b *Broker) record(r Report) error {
	if err := checkReport(r); err != nil {
		b.journal(journal.System, "report-rejected", "refused a report from the coder: "+err.Error(),
			map[string]any{"lane": r.Lane, "kind": r.Kind, "text": clipText(r.Text), "adapter": r.Adapter})
		return err
	}
	b.journal(journal.Lane(r.Lane), journal.Kind(r.Kind), oneLine(r.Text), reportEvent{r, ReportedByCoder})
	return nil
}

// CoderReported reports whether ev is a report the broker took from its
// socket: the coder's word, which every view marks as such.
func CoderReported(ev journal.Event) bool {
	if len(ev.Data) == 0 {
		return false
	}
	var d struct {
		ReportedBy string `json:"reported_by"`
	}
	return json.Unmarshal(ev.Data, &d) == nil && d.ReportedBy == ReportedByCoder
}

func clipText(s string) string {
	if r := []rune(s); len(r) > 200 {
		return string(r[:200]) + "…"
	}
	return s
}
