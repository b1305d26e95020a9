package runner

import "github.com/sentinelhq/sentinel/runner/patch"

// ReviewRequest asks a person to review the coder's change before it lands.
// The view answers exactly once on Answer.
type ReviewRequest struct {
	RunID  string
	Files  []patch.File // flagged files first
	Patch  []byte       // the whole patch
	Checks []CheckResult
	Answer chan<- ReviewAnswer
}

// ReviewAnswer is the person's verdict on a review.
type ReviewAnswer struct {
	Approve bool
	// Patch is the accepted part when the person accepted only some files
	// or hunks; nil means the whole patch. A partial patch is re-verified
	// before it lands.
	Patch  []byte
	Reason string // why it was rejected, for the journal
}

// Reviews delivers the review of the coder's change when the run has a
// person (Options.Review); the view answers on the request's Answer.
func (r *Run) Reviews() <-chan *ReviewRequest { return r.reviews }
