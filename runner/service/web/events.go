package web

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// runView is one run as the page shows it; Lines are its journal's last
// lines, each made safe (the script sets them as text, never as markup).
type runView struct {
	Key     string   `json:"key"` // an opaque id for the page's elements
	Run     string   `json:"run"`
	Project string   `json:"project"`
	Coder   string   `json:"coder"`
	State   string   `json:"state"`
	Pending int      `json:"pending"`
	Lines   []string `json:"lines"`
}

// tailLines is how many lines of each run the page shows.
const tailLines = 6

// tail follows one run's journal.
type tail struct {
	cur   *journal.Cursor
	lines []string
}

func keyOf(project, run string) string {
	h := sha256.Sum256([]byte(project + "\x00" + run))
	return "r" + hex.EncodeToString(h[:8])
}

// runViews is every run the queue knows, with its last journal lines. The
// journal's path is recomputed from the run's project and id
// (queue.JournalPath), never one a client sent, and read without following
// a link.
func (s *Server) runViews() []runView {
	s.tailMu.Lock()
	defer s.tailMu.Unlock()
	var out []runView
	seen := map[string]bool{}
	for _, st := range s.opts.Queue.Statuses() {
		k := keyOf(st.Project, st.Run)
		seen[k] = true
		v := runView{Key: k, Run: textsafe.Strict(st.Run), Project: textsafe.Strict(st.Project), Coder: textsafe.Line(st.Coder),
			State: st.State, Pending: st.Pending}
		t := s.tails[k]
		if t == nil {
			t = &tail{}
			s.tails[k] = t
		}
		if t.cur == nil { // a journal not written yet is looked for again
			if p, err := queue.JournalPath(st.Project, st.Run); err == nil {
				t.cur, _ = journal.OpenCursor(p)
			}
		}
		for t.cur != nil {
			ev, ok, err := t.cur.Next()
			if err != nil || !ok {
				break
			}
			if ev.Text == "" {
				continue
			}
			t.lines = append(t.lines, clip(textsafe.Line(string(ev.Lane)+" · "+ev.Text), 240))
			if len(t.lines) > tailLines {
				t.lines = t.lines[len(t.lines)-tailLines:]
			}
		}
		v.Lines = append([]string{}, t.lines...)
		out = append(out, v)
	}
	for k, t := range s.tails {
		if !seen[k] {
			if t.cur != nil {
				t.cur.Close()
			}
			delete(s.tails, k)
		}
	}
	return out
}

// sseTick is how often the live view looks at the runs' states and lines.
const sseTick = time.Second

// events is the live view: "cards" with the waiting ids whenever the
// queue changes, "runs" with every run's state and last lines when they
// change.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "no streaming here", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	changed := make(chan struct{}, 1)
	go func() {
		defer cancel()
		_ = s.opts.Queue.Watch(ctx, func(queue.Event) error {
			select {
			case changed <- struct{}{}:
			default:
			}
			return nil
		})
	}()
	send := func(event string, v any) bool {
		b, err := json.Marshal(v)
		if err != nil {
			return false
		}
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b); err != nil {
			return false
		}
		fl.Flush()
		return true
	}
	t := time.NewTicker(sseTick)
	defer t.Stop()
	var last, lastIDs []byte
	d := deviceOf(r)
	for {
		if !s.opts.Devices.Still(d) {
			return // revoked: the live view ends at once
		}
		ids := []string{}
		for _, e := range s.opts.Queue.List() {
			ids = append(ids, e.ID)
		}
		runs := s.runViews()
		if b, _ := json.Marshal(runs); string(b) != string(last) {
			if !send("runs", runs) {
				return
			}
			last = b
		}
		if b, _ := json.Marshal(ids); string(b) != string(lastIDs) {
			if !send("cards", ids) {
				return
			}
			lastIDs = b
		}
		select {
		case <-ctx.Done():
			return
		case <-changed:
		case <-t.C:
		}
	}
}
