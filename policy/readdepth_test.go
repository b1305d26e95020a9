package policy

import (
	"strings"
	"testing"
)

func TestReadingDeeperThanMeasuresWithoutRecursing(t *testing.T) {
	for _, c := range []struct {
		line string
		deep bool
	}{
		{"ls -la; git status", false},
		{strings.Repeat("ls; ", 5000) + "ls", false},
		{strings.Repeat("ls && ", 5000) + "ls", true},
		{"echo $((1" + strings.Repeat("+1", 5000) + "))", true},
		{strings.Repeat("(", 2000) + "ls" + strings.Repeat(")", 2000), true},
		{"if a; then (b | c) && $(d); fi", false},
	} {
		if got := Read(c.line).DeeperThan(1000); got != c.deep {
			t.Errorf("DeeperThan(1000) of %.40q… = %v, want %v", c.line, got, c.deep)
		}
	}
}
