package tui

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// maxPartial bounds an unfinished coder line: output with no newline for this
// long is cut into lines so memory stays bounded.
const maxPartial = 16 << 10

// ingest applies a batch of events to the lanes and counters.
func (m *model) ingest(evs []journal.Event) {
	for _, ev := range evs {
		m.ingestOne(ev)
	}
}

func (m *model) ingestOne(ev journal.Event) {
	switch ev.Lane {
	case journal.Coder:
		if ev.Kind == "output" {
			m.coderOutput(ev.Text)
			return
		}
		m.addLine(paneCoder, line{tagCoder, m.coderEventText(ev)})
	case journal.Tool:
		for _, t := range toolLines(ev) {
			m.addLine(paneTool, line{tagTool, t})
		}
	case journal.Approval:
		t := tagApproval
		switch ev.Kind {
		case "request":
			var d struct {
				Verdict struct {
					Decision string `json:"decision"`
				} `json:"verdict"`
			}
			_ = ev.Decode(&d)
			if d.Verdict.Decision == "ask" {
				m.counts.asked++
			}
		case "decision":
			var d struct {
				Decision  string `json:"decision"`
				RequestID string `json:"request_id"`
			}
			_ = ev.Decode(&d)
			m.decidedElsewhere(d.RequestID)
			switch {
			case d.Decision == "deny" || strings.HasPrefix(ev.Text, "denied:"):
				m.counts.denied++
				t = tagDenied
			case d.Decision == "allow":
				m.counts.allowed++
			}
		}
		m.addLine(paneApproval, line{t, eventText(ev)})
	case journal.Supervisor:
		var d struct {
			TokensIn   int   `json:"tokens_in"`
			TokensOut  int   `json:"tokens_out"`
			DurationMS int64 `json:"duration_ms"`
		}
		if ev.Decode(&d) == nil && (d.TokensIn > 0 || d.TokensOut > 0 || d.DurationMS > 0) {
			m.counts.supTurns++
			m.counts.supIn += d.TokensIn
			m.counts.supOut += d.TokensOut
			m.counts.supTime += time.Duration(d.DurationMS) * time.Millisecond
		}
		m.addLine(paneSupervisor, line{tagSupervisor, eventText(ev)})
	case journal.Adversary:
		m.addLine(paneSupervisor, line{tagAdversary, eventText(ev)})
	default:
		m.systemEvent(ev)
	}
}

// decidedElsewhere drops a queued card whose request was already decided (a
// timeout, the supervisor, or a stopped run): answering it would do nothing.
func (m *model) decidedElsewhere(id string) {
	if id == "" {
		return
	}
	for i, p := range m.queue {
		if p.Request.ID != id {
			continue
		}
		delete(m.skipped, p)
		m.queue = append(m.queue[:i:i], m.queue[i+1:]...)
		if i == 0 {
			m.chooser = nil
			if m.mode == modeRemember || m.mode == modeDenyMsg {
				m.mode = modeNormal
			}
			if len(m.queue) > 0 && !m.cardHidden {
				m.cardOpened = m.opts.Now() // the next card gets its own guard
			}
		}
		m.flash = "a pending request was decided elsewhere: " + textsafe.Line(requestText(p.Request))
		return
	}
}

func (m *model) systemEvent(ev journal.Event) {
	switch ev.Kind {
	case "run-end":
		var d struct {
			Status string `json:"status"`
		}
		_ = ev.Decode(&d)
		m.runStatus = firstNonEmpty(d.Status, "ended")
	case "coder-exit":
		m.coderExited = true
	case journal.KindFailed: // the run stops: say why where the person looks
		m.flash = "the run's journal cannot be written; the run is stopping: " + textsafe.Line(ev.Text)
	}
	m.addLine(paneSupervisor, line{tagSystem, eventText(ev)})
}

// addLine adds to a lane pane and to the timeline.
func (m *model) addLine(id paneID, l line) {
	m.panes[id].add(l)
	m.panes[paneTimeline].add(l)
}

// coderOutput takes a raw pty chunk. A full-screen coder's chunk goes to the
// terminal emulator; a line coder's is cut into lines with escapes removed.
func (m *model) coderOutput(chunk string) {
	if m.info.FullScreenCoder {
		m.term.write(chunk)
		return
	}
	m.coderPartial += chunk
	for {
		i := strings.IndexByte(m.coderPartial, '\n')
		if i < 0 {
			break
		}
		m.addLine(paneCoder, line{tagCoder, textsafe.TermLine(m.coderPartial[:i])})
		m.coderPartial = m.coderPartial[i+1:]
	}
	if len(m.coderPartial) > maxPartial {
		m.addLine(paneCoder, line{tagCoder, textsafe.TermLine(m.coderPartial)})
		m.coderPartial = ""
	}
	if m.coderPartial == "" {
		m.panes[paneCoder].setPartial(line{}, false)
		return
	}
	m.panes[paneCoder].setPartial(line{tagCoder, textsafe.TermLine(m.coderPartial)}, true)
}

func (m *model) coderEventText(ev journal.Event) string {
	if ev.Kind == "steer" {
		return "» steer: " + textsafe.Line(ev.Text)
	}
	return eventText(ev)
}

// failedMark leads a tool call that failed (approvals.ToolOutcome).
const failedMark = "✗ failed: "

// markFailed marks a finished tool call's line as failed when it did; a
// coder's report keeps "coder reports: " first.
func markFailed(ev journal.Event, text string) string {
	if _, failed := approvals.ToolOutcome(ev); !failed {
		return text
	}
	if rest, ok := strings.CutPrefix(text, coderSays); ok {
		return coderSays + failedMark + rest
	}
	return failedMark + text
}

// toolLines renders a tool event: a started command, its result with the
// tail of its output, or a file write.
func toolLines(ev journal.Event) []string {
	switch ev.Kind {
	case "run":
		return []string{"$ " + textsafe.Line(ev.Text)}
	case "result":
		var d map[string]any
		_ = ev.Decode(&d)
		head := "exit " + fmt.Sprint(d["exit_code"])
		if ev.Text != "" {
			head = eventText(ev)
		}
		out := []string{"  → " + markFailed(ev, head)}
		for _, k := range []string{"output", "output_tail", "tail"} {
			if s, ok := d[k].(string); ok && s != "" {
				for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
					out = append(out, "    "+textsafe.TermLine(l))
				}
				break
			}
		}
		return out
	}
	return []string{markFailed(ev, eventText(ev))}
}

// coderSays leads a report the coder sent over the broker's socket: the
// coder's word, not Sentinel's.
const coderSays = "coder reports: "

// eventText is an event's one-line form: its text, else its kind and data.
func eventText(ev journal.Event) string {
	if approvals.CoderReported(ev) {
		return coderSays + textsafe.Line(ev.Text)
	}
	if ev.Text != "" {
		return textsafe.Line(ev.Text)
	}
	if len(ev.Data) == 0 {
		return ev.Kind
	}
	var d map[string]json.RawMessage
	if err := json.Unmarshal(ev.Data, &d); err != nil {
		return ev.Kind + " " + textsafe.Line(string(ev.Data))
	}
	keys := make([]string, 0, len(d))
	for k := range d {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(ev.Kind)
	for _, k := range keys {
		v := string(d[k])
		var s string
		if json.Unmarshal(d[k], &s) == nil {
			v = s
		}
		fmt.Fprintf(&b, " %s=%s", k, v)
	}
	return textsafe.Line(b.String())
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
