package runner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// Checkpoints are kept by the place's path (checkpoint.Open), the run
// records in the place itself (.sentinel/runs). A place moved or renamed
// after an in-place run still holds the run's record, but undo there
// finds no checkpoint and said "nothing to undo", which reads as "your
// place is as it was" (h/ipatk14). movedHint says where to look instead.

// movedHint is err with what the place's own records say when it records
// in-place runs the store (of the place's path now) has no checkpoint of.
func movedHint(p *Project, s *checkpoint.Store, err error) error {
	if recs, rerr := s.Records(); rerr != nil || slices.ContainsFunc(recs, func(r *checkpoint.Record) bool { return r.Kind == "exec" }) {
		return err // the store knows this place: the error is its own
	}
	runs, lerr := ListRuns(p)
	if lerr != nil {
		return err
	}
	var ids []string
	for _, m := range runs {
		if _, rerr := s.Record(m.ID); m.InPlace && rerr != nil {
			ids = append(ids, m.ID)
		}
	}
	if len(ids) == 0 {
		return err
	}
	if len(ids) > 3 {
		ids = append(ids[:3:3], fmt.Sprintf("and %d more", len(ids)-3))
	}
	return fmt.Errorf("%w; but %s records in-place run(s) with no checkpoint under this path (%s): checkpoints are kept by the folder's path when the run started, so if the folder was moved or renamed since, move it back and run sentinel undo there", err, p.Root, strings.Join(ids, ", "))
}
