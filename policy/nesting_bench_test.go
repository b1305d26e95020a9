package policy

import (
	"fmt"
	"strings"
	"testing"
)

// nestedLine is a line of depth nested substitutions in one of the
// spellings a coder controls: $( … ), "$( … )" and backticks-free
// $( … ) inside an argument list.
func nestedLine(form string, depth int) string {
	switch form {
	case "quoted":
		return strings.Repeat(`echo "$(`, depth) + "x" + strings.Repeat(`)"`, depth)
	case "args":
		return strings.Repeat("ls a $(cat b ", depth) + "x" + strings.Repeat(" c)", depth)
	default:
		return strings.Repeat("echo $(", depth) + "x" + strings.Repeat(")", depth)
	}
}

// BenchmarkCheckNestedDepth judges lines of 10, 50 and 200 nested $( to
// show how the cost grows with depth (linear: ns/op per level stays flat).
//
//	go test -run '^$' -bench CheckNestedDepth -benchtime 20x ./policy/
func BenchmarkCheckNestedDepth(b *testing.B) {
	for _, form := range []string{"plain", "quoted", "args"} {
		for _, d := range []int{10, 50, 200} {
			b.Run(fmt.Sprintf("%s/depth=%d", form, d), func(b *testing.B) { benchCheck(b, nestedLine(form, d)) })
		}
	}
}

// TestNestedSubstitutionWorkIsQuadratic: a coder controls the line, so
// judging d nested $( must not cost d³. Each level's word is walked for
// fetchers once (d²/2 nodes in all); the binder, which reads each level's
// value and recurses into the next, must not walk again at every level
// (words.go decodeShallow), which made 200 levels take seconds. The count
// of nodes walked, not the time, is compared: from depth 50 to 200 it may
// grow 16× (quadratic), not 64×.
func TestNestedSubstitutionWorkIsQuadratic(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	walked := func(d int) int64 {
		before := fetchWalkNodes.Load()
		e.Check(Query{Kind: KindShell, Command: nestedLine("plain", d), Context: ctx})
		return fetchWalkNodes.Load() - before
	}
	small, big := walked(50), walked(200)
	if small == 0 || big > 20*small {
		t.Errorf("nodes walked: %d at depth 50, %d at depth 200 (%.1f×), want at most 20× (quadratic is 16×)", small, big, float64(big)/float64(max(small, 1)))
	}
	t.Logf("nodes walked: %d at depth 50, %d at depth 200", small, big)
}
