package service

import (
	"context"
	"errors"
	"os"
	"sort"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// Unsupervised lists this user's agent processes as one scan finds them,
// with no service to say which are launched: `sentinel ps` with the
// service down.
func Unsupervised(ctx context.Context) ([]Agent, error) {
	t, err := readProcs(ctx)
	if err != nil {
		return nil, err
	}
	out := []Agent{}
	for _, p := range t {
		if p.Program == "" || p.UID != os.Getuid() || p.Start == 0 {
			continue
		}
		a := describe(ctx, t, p)
		a.State = StateUnsupervised
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	return out, nil
}

// RecentlyTerminated lists the agents the service journal at path records
// as terminated (ended by the policy, or gone) since since, newest last. A
// missing journal is no agents.
func RecentlyTerminated(path string, since time.Time) ([]Agent, error) {
	evs, err := journal.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return []Agent{}, nil
		}
		return nil, err
	}
	out := []Agent{}
	for _, ev := range evs {
		if ev.Kind != KindAgentTerminated || ev.Time.Before(since) {
			continue
		}
		if a, ok := AsAgent(ev); ok {
			a.State = StateTerminated
			out = append(out, a)
		}
	}
	return out, nil
}
