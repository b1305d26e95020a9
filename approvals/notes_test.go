package approvals

import (
	"strings"
	"testing"
)

func TestCoderNotesAreTakenOnce(t *testing.T) {
	var n coderNotes
	n.add("refused a.example:443")
	n.add("refused a.example:443")
	n.add("refused b.example:443")
	if got := n.take(); got != "refused a.example:443\nrefused b.example:443" {
		t.Fatalf("take = %q", got)
	}
	if got := n.take(); got != "" {
		t.Fatalf("a note was handed out twice: %q", got)
	}
	for i := 0; i < maxNotes+5; i++ {
		n.add(strings.Repeat("x", i+1))
	}
	if got := n.take(); !strings.Contains(got, "and 5 more") {
		t.Errorf("a flood of notes is not summarized: %q", got)
	}
}
