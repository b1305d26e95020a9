package gitstore

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A pack whose verification does not end within its bound is stopped,
// refused and named (pack and index), and does not enter the store: git
// verify-pack on a pack made to be slow would otherwise hold the end of
// the run for as long as the coder likes.
func TestMoveRefusesAPackWhoseVerificationOutlastsItsBound(t *testing.T) {
	store, scratch, _, _ := scratchWithPack(t, "sha1")
	var refused []string
	var sized int64 = -1
	m := Move{From: scratch, Into: []Store{{Dir: store, HexLen: 40}},
		VerifyBound: func(n int64) time.Duration { sized = n; return time.Millisecond },
		VerifyPack: func(ctx context.Context, _ Store, _ string) error {
			select {
			case <-ctx.Done(): // a verification that would never end on its own
				return ctx.Err()
			case <-time.After(2 * time.Minute): // hang bound only
				return errors.New("the verification was never stopped")
			}
		},
		Refuse: func(p, why string) { refused = append(refused, filepath.Base(p)+": "+why) }}
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(storePacks(t, store)) != 0 {
		t.Errorf("a pack whose verification never ended entered the store: %v", storePacks(t, store))
	}
	all := strings.Join(refused, "\n")
	if !strings.Contains(all, ".pack: its verification did not end within 1ms and was stopped") || !strings.Contains(all, ".idx: the index of a pack") {
		t.Errorf("the pack and its index are not refused and named:\n%s", all)
	}
	if sized <= 0 {
		t.Errorf("the bound was not given the pack's size (%d)", sized)
	}
	if VerifyBoundOf(0) < time.Minute || VerifyBoundOf(2<<30) <= VerifyBoundOf(0) {
		t.Errorf("the default bound is not at least a minute and scaled by size: %s, %s", VerifyBoundOf(0), VerifyBoundOf(2<<30))
	}
}
