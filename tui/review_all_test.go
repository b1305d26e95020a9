package tui

import (
	"strings"
	"testing"
)

// TestReviewRejectAllThenOneLandsOnlyThatFile: X rejects every file, x then
// takes back the one to land (two keys, not one per file), and A accepts
// every file again.
func TestReviewRejectAllThenOneLandsOnlyThatFile(t *testing.T) {
	hs, ans := openReview(t, "nocolor", 120, 40)
	hs.pressReview("X")
	contains(t, hs.screen(), "nothing accepted")
	hs.pressReview("x") // the file under the cursor
	contains(t, hs.screen(), "accepting 1/5 file(s)")
	hs.pressReview("A")
	contains(t, hs.screen(), "accepting 5/5 file(s), 5/5 hunk(s)")
	hs.pressReview("X", "x", "a")
	contains(t, hs.screen(), "Land 1 of 5 file(s)")
	hs.pressReview("y")
	a, ok := verdict(ans)
	if !ok || !a.Approve || a.Patch == nil || strings.Count(string(a.Patch), "diff --git") != 1 {
		t.Fatalf("X, x, a, y gave %+v (answered %v); want a patch of exactly one file", a, ok)
	}
}
