package wire

import "github.com/sentinelhq/sentinel/internal/flatjson"

// A client's side of the protocol is one message out and one in per
// process (a hook's), so it is written and read without reflection
// (internal/flatjson): encoding/json's first look at these struct types
// cost a hook process more than the rest of its work. The broker reads and
// writes the same lines with encoding/json and the struct tags; the codec
// tests hold the two to each other, field for field.

// encodeLine is m as json.Marshal writes it (omitempty and all), without
// the newline; a raw member (a request's input, a report's data) is only
// compacted, not HTML-escaped (flatjson's Raw): the same JSON value.
func encodeLine(m Message) ([]byte, error) {
	w := new(flatjson.Writer).Open()
	w.Int("v", int64(m.V)).String("type", m.Type).StringIf("id", m.ID)
	if r := m.Request; r != nil {
		w.Name("request").Open().StringIf("id", r.ID).String("kind", string(r.Kind)).
			StringIf("command", r.Command).StringIf("path", r.Path).StringIf("url", r.URL).StringIf("host", r.Host)
		if r.Port != 0 {
			w.Int("port", int64(r.Port))
		}
		w.StringIf("tool", r.Tool).RawIf("input", r.Input).StringIf("cwd", r.Cwd).StringIf("adapter", r.Adapter)
		if len(r.Argv) > 0 {
			w.Strings("argv", r.Argv)
		}
		w.StringIf("tool_call_id", r.ToolCallID).Close()
	}
	if r := m.Report; r != nil {
		w.Name("report").Open().String("lane", r.Lane).String("kind", string(r.Kind)).String("text", r.Text).
			StringIf("tool", r.Tool).StringIf("tool_call_id", r.ToolCallID).StringIf("adapter", r.Adapter)
		if r.ExitCode != nil {
			w.Int("exit_code", int64(*r.ExitCode))
		}
		if r.Failed {
			w.Bool("failed", true)
		}
		w.StringIf("reason", r.Reason).RawIf("data", r.Data).Close()
	}
	if d := m.Decision; d != nil {
		w.Name("decision").Open().StringIf("request_id", d.RequestID).String("decision", string(d.Outcome)).
			String("by", d.By)
		if len(d.TemplateNames) > 0 {
			w.Strings("template_names", d.TemplateNames)
		}
		w.String("reason", d.Reason).StringIf("message", d.Message)
		if d.Remember {
			w.Bool("remember", true)
		}
		w.Int("latency_ms", d.LatencyMS)
		if len(d.Hosts) > 0 {
			w.Strings("hosts", d.Hosts)
		}
		w.Close()
	}
	w.StringIf("error", m.Error).StringIf("note", m.Note).Close()
	return w.Bytes()
}

// decodeAnswer reads a line the broker sends a client — a decision, an
// ack or an error — as json.Unmarshal would read it into a Message, but
// with names matched exactly (the broker writes them so). A request or
// report in it is not read: the broker sends neither.
func decodeAnswer(line []byte) (Message, error) {
	o, err := flatjson.Parse(line)
	if err != nil {
		return Message{}, err
	}
	var m Message
	v, err := o.Int("v")
	if err != nil {
		return Message{}, err
	}
	m.V = int(v)
	if err := o.ReadStrings(flatjson.Field{Dst: &m.Type, Name: "type"}, flatjson.Field{Dst: &m.ID, Name: "id"},
		flatjson.Field{Dst: &m.Error, Name: "error"}, flatjson.Field{Dst: &m.Note, Name: "note"}); err != nil {
		return Message{}, err
	}
	do, err := o.Object("decision")
	if err != nil || do == nil {
		return m, err
	}
	d := new(Decision)
	var outcome string
	if err := do.ReadStrings(flatjson.Field{Dst: &d.RequestID, Name: "request_id"}, flatjson.Field{Dst: &outcome, Name: "decision"},
		flatjson.Field{Dst: &d.By, Name: "by"}, flatjson.Field{Dst: &d.Reason, Name: "reason"}, flatjson.Field{Dst: &d.Message, Name: "message"}); err != nil {
		return Message{}, err
	}
	d.Outcome = Outcome(outcome)
	if d.Remember, err = do.Bool("remember"); err != nil {
		return Message{}, err
	}
	if d.LatencyMS, err = do.Int("latency_ms"); err != nil {
		return Message{}, err
	}
	if d.Hosts, err = do.Strings("hosts"); err != nil {
		return Message{}, err
	}
	if d.TemplateNames, err = do.Strings("template_names"); err != nil {
		return Message{}, err
	}
	m.Decision = d
	return m, nil
}
