package main

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// startSignals watches SIGINT, SIGTERM and SIGHUP while an in-place run
// starts: the first one closes stopped (runner.Options.StopStarting), so a
// stop during the first record of a big place ends the start promptly,
// with a line, instead of killing the process with no word (31: stop
// means stop). done ends the watch; the signals stay caught until then,
// so one arriving in the instant between Start's return and showRun's own
// watch does not kill the process in the middle of a run (it is dropped:
// press again).
func startSignals() (stopped <-chan struct{}, done func()) {
	ch := make(chan struct{})
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	started := make(chan struct{})
	go func() {
		select {
		case <-sigs:
			close(ch)
		case <-started:
		}
	}()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			close(started)
			signal.Stop(sigs)
		})
	}
}
