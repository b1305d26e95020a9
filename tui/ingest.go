package tui

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/runner"
	"github.com/sentinelhq/sentinel/supervisor"
	"github.com/sentinelhq/sentinel/tui/plain"
)

// maxPartial bounds an unfinished coder line: output with no newline for this
// long is cut into lines so memory stays bounded.
const maxPartial = 16 << 10

// ingest applies a batch of events to the lanes and counters.
func (m *model) ingest(evs []journal.Event) {
	for _, ev := range evs {
		m.ingestOne(ev)
		m.markPanes(ev)
	}
}

func (m *model) ingestOne(ev journal.Event) {
	m.trackIdle(ev)
	if m.trackBusy(ev) || coderstream.Quiet(ev) {
		return
	}
	switch ev.Lane {
	case journal.Coder:
		if ev.Kind == coderstream.Output {
			m.coderOutput(ev.Text, ev.Seq)
			return
		}
		m.addLine(paneCoder, line{tagCoder, m.coderEventText(ev)})
	case journal.Tool:
		for _, t := range toolLines(ev) {
			m.addLine(paneTool, line{tagTool, t})
		}
	case journal.Approval:
		t := tagApproval
		if r, ok := approvals.AsRequest(ev); ok && r.Verdict != nil && r.Verdict.Decision == policy.Ask {
			m.counts.asked++
		}
		if d, ok := approvals.AsDecision(ev); ok {
			m.decidedElsewhere(d.RequestID, d.Reason)
			if d.Allowed() {
				m.counts.allowed++
			} else {
				m.counts.denied++
				t = tagDenied
			}
		}
		m.addLine(paneApproval, line{t, eventText(ev)})
	case journal.Supervisor:
		if d, ok := supervisor.AsTurn(ev); ok && (d.TokensIn > 0 || d.TokensOut > 0 || d.DurationMS > 0) {
			m.counts.supTurns++
			m.counts.supIn += int(d.TokensIn)
			m.counts.supOut += int(d.TokensOut)
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
// timeout, the supervisor, a stopped run, or the person in the approval
// queue or console): answering it would do nothing. The flash says where
// (the decision's reason, e.g. "approved once in the console").
func (m *model) decidedElsewhere(id, how string) {
	if id == "" {
		return
	}
	for i, p := range m.queue {
		if p.Request.ID != id {
			continue
		}
		m.queue = append(m.queue[:i:i], m.queue[i+1:]...)
		if i == 0 {
			m.chooser = nil
			if m.mode == modeRemember || m.mode == modeDenyMsg {
				m.mode = modeNormal
			}
			if len(m.queue) > 0 {
				m.cardOpened = m.opts.Now() // the next card gets its own guard
			}
		}
		m.flash = "a pending request was decided elsewhere: " + textsafe.Line(requestText(p.Request))
		if strings.HasPrefix(how, "withdrawn") {
			m.flash = "a card was withdrawn, the process that asked ended: " + textsafe.Line(requestText(p.Request))
		} else if how != "" {
			m.flash += " — " + textsafe.Line(how)
		}
		return
	}
}

func (m *model) systemEvent(ev journal.Event) {
	switch ev.Kind {
	case runner.KindRunEnd:
		d, _ := runner.AsRunEnd(ev)
		m.runStatus = textsafe.Line(firstNonEmpty(d.State, string(d.Status), "ended"))
	case runner.KindCoderExit:
		m.coderExited = true
	case journal.KindFailed: // the run stops: say why where the person looks
		m.flash = "the run's journal cannot be written; the run is stopping: " + textsafe.Line(ev.Text)
	}
	m.trackEnd(ev)
	m.addLine(paneSupervisor, line{tagSystem, eventText(ev)})
}

// addLine adds to a lane pane and to the timeline.
func (m *model) addLine(id paneID, l line) {
	l.text = relText(m.info.Workspace, l.text)
	m.panes[id].add(l)
	m.panes[paneTimeline].add(l)
}

// coderOutput takes a raw pty chunk. A full-screen coder's chunk goes to the
// terminal emulator; a line coder's is cut into lines with escapes removed.
func (m *model) coderOutput(chunk string, seq int64) {
	if m.info.FullScreenCoder {
		m.term.write(chunk, seq)
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
	if ev.Kind == runner.KindSteer {
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
	case coderstream.Run:
		return []string{"$ " + textsafe.Line(ev.Text)}
	case coderstream.Result:
		d, _ := coderstream.AsToolOutput(ev)
		head := "exit <nil>"
		if d.ExitCode != nil {
			head = "exit " + fmt.Sprint(*d.ExitCode)
		}
		if ev.Text != "" {
			head = eventText(ev)
		}
		out := []string{"  → " + markFailed(ev, head)}
		if s := d.Shown(); s != "" {
			for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
				out = append(out, "    "+textsafe.TermLine(l))
			}
		}
		return out
	}
	out := []string{markFailed(ev, eventText(ev))}
	for _, l := range plain.FailedCheckTail(ev) { // a failed check: its output's end
		out = append(out, plain.TailMark+l)
	}
	return out
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
		return string(ev.Kind)
	}
	var d map[string]json.RawMessage
	if err := json.Unmarshal(ev.Data, &d); err != nil {
		return string(ev.Kind) + " " + textsafe.Line(string(ev.Data))
	}
	keys := make([]string, 0, len(d))
	for k := range d {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(string(ev.Kind))
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
