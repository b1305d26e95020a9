package mcpserver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/placeflags"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// A path changed while 160 other writing calls ran is told with the first
// maxWithNamed of them and a count of the rest, in the changed-paths line
// and in a flag's line: each named every call in flight (kilobytes a
// line at 160 concurrent calls, per answer and on the person's terminal).
func TestOtherCallsRunningAreCapped(t *testing.T) {
	var with []string
	for i := range 160 {
		with = append(with, fmt.Sprintf("exec: echo %03d > f%03d", i, i))
	}
	p := &callPoint{}
	p.share.add("/rw", []checkpoint.Change{{Path: "a.txt", After: &checkpoint.Entry{Path: "a.txt", Kind: checkpoint.KindFile}}}, with)
	p.diffs = []placeDiff{{root: "/rw", flags: []placeflags.Flag{{Path: "/rw/Makefile", Reason: "a makefile"}}, with: with}}
	lines := append(p.wroteLines(), p.flagLines()...)
	if len(lines) != 2 {
		t.Fatalf("want the shared line and the flag's, got %q", lines)
	}
	for _, l := range lines {
		if strings.Contains(l, with[maxWithNamed]) || !strings.Contains(l, with[maxWithNamed-1]+" and 155 more)") || len(l) > 600 {
			t.Errorf("the other calls are not the first %d and a count (%d bytes):\n%s", maxWithNamed, len(l), l)
		}
	}
}
