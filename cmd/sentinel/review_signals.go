package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// signalGrace is how long reviewSignals' signalled waits for a signal that
// ended the review screen to be seen: the screen's own handler (Bubble
// Tea's, for SIGINT and SIGTERM) may end it a moment before ours runs.
const signalGrace = 200 * time.Millisecond

// reviewSignals is ctx, cancelled when SIGINT, SIGTERM or SIGHUP arrives,
// and signalled, which says (after the screen ended) whether one did. The
// handler stays for the life of the process: a signal during the landing
// that follows is the landing's to handle (approveWhole).
func reviewSignals(parent context.Context) (context.Context, func() bool) {
	ctx, cancel := context.WithCancel(parent)
	got := make(chan struct{})
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		select {
		case <-sigs:
			close(got)
			cancel()
		case <-ctx.Done():
		}
		signal.Stop(sigs)
	}()
	return ctx, func() bool {
		select {
		case <-got:
			return true
		case <-time.After(signalGrace):
			return false
		}
	}
}
