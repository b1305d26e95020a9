package runlater

import (
	"path/filepath"
	"strings"
	"testing"
)

// A coder's makefile whose variables each name the next 64 times (64^3
// words at the depth the reader follows) is read within maxVarVisits per
// word: the reader neither hangs the end report nor fills memory. Seen
// failing without the visit budget (262,144 includes of one line).
func TestMakeVariablesCannotMultiplyPastTheBound(t *testing.T) {
	root := t.TempDir()
	rep := func(w string) string { return strings.TrimSpace(strings.Repeat(w+" ", 64)) }
	writeFiles(t, root, map[string]string{
		"Makefile": "E := x.mk\nD := " + rep("$(E)") + "\nC := " + rep("$(D)") + "\nB := " + rep("$(C)") +
			"\nA := " + rep("$(B)") + "\ninclude $(B)\nall:\n\tfor d in $(B); do $(MAKE) -C $$d; done\n",
	})
	ms := ReadMakefiles(root, []string{filepath.Join(root, "Makefile")}, nil, nil)
	n := 0
	for _, m := range ms {
		n += len(m.Includes)
	}
	if n == 0 || n > 2*maxVarVisits {
		t.Errorf("%d includes read, want some and at most %d", n, 2*maxVarVisits)
	}
}
