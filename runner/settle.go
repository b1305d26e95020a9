package runner

import (
	"context"
	"fmt"
	"path/filepath"
)

// SettleRun settles run id of the project at root as SweepStale would —
// a landing cut short finished or found never to have begun from its
// signed record, an unfinished apply undone, a dead run's work kept in
// recovery — and returns its record as it stands after. It is what the
// user service does for a run whose process went away without saying how
// it ended (sentinel status, the console), so they show what the
// repository holds. root must be the project's top level, as the run
// reported it; a record Sentinel cannot prove it wrote is an error and is
// never acted on.
func SettleRun(ctx context.Context, root, id string) (*Meta, error) {
	if !ValidRunID(id) {
		return nil, fmt.Errorf("%q is not a run id", id)
	}
	p, err := FindProject(ctx, root)
	if err != nil {
		return nil, err
	}
	if filepath.Clean(p.Root) != filepath.Clean(root) {
		return nil, fmt.Errorf("%s is not a project's top level (that is %s)", root, p.Root)
	}
	m, err := ReadMeta(p, id)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", id, err)
	}
	sweepRun(ctx, p, m)
	m, err = ReadMeta(p, id)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", id, err)
	}
	markGone(p.RunDir(id), m) // a record the sweep could not rewrite (a full disk)
	return m, nil
}
