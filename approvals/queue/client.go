package queue

import (
	"context"
	"encoding/json"

	"github.com/sentinelhq/sentinel/internal/servicewire"
)

// Pending asks the service for the pending requests, oldest first.
func Pending(ctx context.Context) ([]Entry, error) {
	var out []Entry
	err := servicewire.Do(ctx, OpList, nil, &out)
	return out, err
}

// Send answers one request.
func Send(ctx context.Context, a Answer) error {
	_, err := SendNoted(ctx, a)
	return err
}

// SendNoted is Send, with what the answer did beyond its decision.
func SendNoted(ctx context.Context, a Answer) (Answered, error) {
	var out Answered
	err := servicewire.Do(ctx, OpAnswer, a, &out)
	return out, err
}

// Runs asks the service for every run's state.
func Runs(ctx context.Context) ([]RunStatus, error) {
	var out []RunStatus
	err := servicewire.Do(ctx, OpStatus, nil, &out)
	return out, err
}

// SendReport reports a run's state.
func SendReport(ctx context.Context, r Report) error {
	return servicewire.Do(ctx, OpReport, r, nil)
}

// Refresh asks the service to read the ended run's state again from the
// run's own records (a review landed or rejected it).
func Refresh(ctx context.Context, project, run string) error {
	return servicewire.Do(ctx, OpRefresh, Report{Run: run, Project: project}, nil)
}

// WatchQueue follows the queue until ctx ends or the service goes away.
func WatchQueue(ctx context.Context, each func(Event)) error {
	return servicewire.Stream(ctx, OpWatch, nil, func(raw json.RawMessage) error {
		var ev Event
		if err := json.Unmarshal(raw, &ev); err != nil {
			return err
		}
		each(ev)
		return nil
	}, nil)
}
