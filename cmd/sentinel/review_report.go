package main

import (
	"context"
	"time"

	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/runner"
)

// reportReviewed asks the user service (when it runs) to read run id's
// state again from its records after its review, so sentinel status, the
// console and the page stop counting a run the person has just landed or
// rejected as waiting for them. No service is nothing to tell; the service
// reads the records after answering, so this never holds the exit.
func reportReviewed(ctx context.Context, p *runner.Project, id string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	_ = queue.Refresh(ctx, p.Root, id)
}
