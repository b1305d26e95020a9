package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/internal/config"
	"github.com/sentinelhq/sentinel/internal/servicewire"
)

// mountQueue mounts the approval queue across runs, its runs' states and
// the nudge ([notify]): one part of the service.
func mountQueue(ctx context.Context, mux *servicewire.Mux, cfg config.Config) error {
	n := queue.Notifier{Command: cfg.Notify.Command, Desktop: cfg.Notify.Desktop == nil || *cfg.Notify.Desktop,
		Timeout: 10 * time.Second,
		Log: func(s string) {
			fmt.Fprintf(os.Stderr, "%s sentinel service: %s\n", time.Now().UTC().Format(time.RFC3339), s)
		}}
	var push func(queue.Entry) // the page's push (service_web.go), set before the service serves
	q := queue.New(func(e queue.Entry) {
		if push != nil {
			go push(e)
		}
		n.Notify(e)
	})
	q.SetSettler(settleRun)
	q.Mount(mux)
	var err error
	push, err = startWeb(ctx, q, cfg, n.Log)
	return err
}
