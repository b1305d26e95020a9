package approvals

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// ReportedByCoder is the reported_by value the broker puts in the data of
// every report it journals: everything on its socket comes from inside the
// sandbox, so a report is the coder's word, never Sentinel's.
const ReportedByCoder = "coder"

// reportKinds are the kinds a report on the socket may have, by lane: what
// the agents' hooks (tool results, stops, notifications, other hook events)
// and the demo coder send. The system, approval, supervisor and adversary
// lanes speak for Sentinel; a report on them would be a forgery.
var reportKinds = map[journal.Lane][]journal.Kind{
	journal.Tool:  {coderstream.ToolResult, coderstream.Result, coderstream.Write, coderstream.Edit},
	journal.Coder: {coderstream.CoderStop, coderstream.CoderStopFailure, coderstream.Notification, coderstream.Hook},
}

// ReportEvent is the data of a journaled report: the report as sent, marked
// as the coder's.
type ReportEvent struct {
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
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = string(k)
	}
	return fmt.Errorf("report kind %q is not allowed on lane %s (want one of %s)", r.Kind, r.Lane, strings.Join(names, ", "))
}

// record journals a report from the socket on its lane, marked as the
// coder's; a report on another lane or of another kind is refused and
// journaled as a rejected report.
func (b *Broker) record(r Report) error {
	if err := checkReport(r); err != nil {
		b.journal(journal.System, KindReportRejected, "refused a report from the coder: "+err.Error(),
			map[string]any{"lane": r.Lane, "kind": r.Kind, "text": clipText(r.Text), "adapter": r.Adapter})
		return err
	}
	b.journal(journal.Lane(r.Lane), r.Kind, oneLine(r.Text), ReportEvent{r, ReportedByCoder})
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

// AsReport decodes a report the broker journaled from its socket (the
// coder's word): an event of a report kind on the tool or coder lane whose
// data says it was reported by the coder.
func AsReport(ev journal.Event) (ReportEvent, bool) {
	r, ok := journal.As[ReportEvent](ev, ev.Lane, reportKinds[ev.Lane]...)
	return r, ok && r.ReportedBy == ReportedByCoder
}

func clipText(s string) string { return textsafe.Clip(s, 200) }
