//go:build ignore

// Command tuimem shows a journal file in Sentinel's TUI, as `sentinel run`'s
// live view shows a run it joins (runner.Run.Events: the journal so far,
// one event at a time), and quits when every event has been handed to the
// TUI. docs/measure/tui-memory.sh runs it under tmux and /usr/bin/time -v to
// see whether the TUI's memory stays flat on a 10M-line journal; it is a
// measuring tool, not part of the product.
//
//	go run docs/measure/tuimem.go FILE
package main

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner"
	"github.com/sentinelhq/sentinel/tui"
)

type fileSession struct {
	path string
	done chan struct{}
	once sync.Once
	n    int64
}

func (s *fileSession) Info() tui.SessionInfo {
	return tui.SessionInfo{RunID: "tuimem", Coder: "command", Task: "show a long journal", Journal: s.path, Started: time.Now()}
}

// Events streams the file, then ends the run: Done closes once the last
// event was taken by the TUI.
func (s *fileSession) Events() (<-chan journal.Event, func()) {
	ch := make(chan journal.Event)
	stop := make(chan struct{})
	go func() {
		defer close(ch)
		defer s.Finish()
		errStop := fmt.Errorf("stopped")
		_ = journal.ScanFile(s.path, func(ev journal.Event) error {
			select {
			case ch <- ev:
				s.n++
				return nil
			case <-stop:
				return errStop
			}
		})
	}()
	var once sync.Once
	return ch, func() { once.Do(func() { close(stop) }) }
}

func (s *fileSession) Prompts() <-chan *approvals.Prompt     { return nil }
func (s *fileSession) Reviews() <-chan *runner.ReviewRequest { return nil }
func (s *fileSession) PastRequests() []approvals.Request     { return nil }
func (s *fileSession) Steer(string) error                    { return nil }
func (s *fileSession) ResizeCoder(int, int)                  {}
func (s *fileSession) SendKeys([]byte) error                 { return nil }
func (s *fileSession) Stop()                                 { s.Finish() }
func (s *fileSession) Finish()                               { s.once.Do(func() { close(s.done) }) }
func (s *fileSession) Done() <-chan struct{}                 { return s.done }

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: tuimem JOURNAL")
		os.Exit(2)
	}
	s := &fileSession{path: os.Args[1], done: make(chan struct{})}
	start := time.Now()
	err := tui.Run(context.Background(), s, tui.Options{ExitWhenDone: true, Theme: "dark"})
	fmt.Fprintf(os.Stderr, "tuimem: %d events shown in %.1f s\n", s.n, time.Since(start).Seconds())
	if err != nil {
		fmt.Fprintln(os.Stderr, "tuimem:", err)
		os.Exit(1)
	}
}
