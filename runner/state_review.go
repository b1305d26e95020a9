package runner

import (
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// NoteReviews marks each running run in metas whose change waits for the
// person's review (its journal's last review event opened one), so StateOf
// says "reviewing" as the service, `sentinel status` and the console do
// (issue 37.10: `runs` said running while the console said reviewing). A
// run's record says running until it ends; its journal says the rest.
func NoteReviews(p *Project, metas []*Meta) {
	for _, m := range metas {
		if m.Status == StatusRunning {
			m.Reviewing = reviewOpen(filepath.Join(p.RunDir(m.ID), "events.jsonl"))
		}
	}
}

// reviewOpen reports whether the journal at path opened a review that no
// approval or rejection has closed yet.
func reviewOpen(path string) bool {
	c, err := journal.OpenCursor(path)
	if err != nil {
		return false
	}
	defer c.Close()
	open := false
	for {
		ev, ok, err := c.Next()
		if err != nil || !ok {
			return open
		}
		switch {
		case ev.Is(journal.System, KindReview):
			open = true
		case ev.Lane == journal.System && (ev.Kind == KindReviewApproved || ev.Kind == KindReviewRejected):
			open = false
		}
	}
}
